; Patterns shared by JavaScript, TypeScript and TSX (prepended to javascript.scm and
; typescript.scm by sitegen/code/grammars.py). Capture names: see python.scm.

; ---- definitions
(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(class_declaration name: (_) @name) @definition.class
(method_definition name: [(property_identifier) (private_property_identifier)] @name)
  @definition.method
; `const f = () => …` / `const f = function () {}` at top level (also when exported)
(program
  (lexical_declaration "const"
    (variable_declarator
      name: (identifier) @name
      value: [(arrow_function) (function_expression)]) @definition.function))
(program
  (export_statement
    declaration: (lexical_declaration "const"
      (variable_declarator
        name: (identifier) @name
        value: [(arrow_function) (function_expression)]) @definition.function)))

; ---- imports (bindings are read by sitegen/code/dialects.py)
(import_statement source: (string) @import.source) @import.import
(export_statement source: (string) @import.source) @import.export-from
(call_expression
  function: (identifier) @_require (#eq? @_require "require")
  arguments: (arguments . (string) @import.source .)) @import.require
(call_expression
  function: (import)
  arguments: (arguments . (string) @import.source)) @import.dynamic

; ---- references
(call_expression function: [(identifier) (member_expression)] @reference.call)
(new_expression constructor: [(identifier) (member_expression)] @reference.call)

; ---- comments
(comment) @comment

; ---- metacall
(call_expression
  function: (identifier) @_f (#eq? @_f "metacall")
  arguments: (arguments . (string) @metacall.function))
(call_expression
  function: (identifier) @_f (#eq? @_f "metacall_load_from_file")
  arguments: (arguments . (string) @metacall.tag . (array) @metacall.paths))
