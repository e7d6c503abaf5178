; Python extraction patterns (content/reference/code-graph.md). Capture names, read by extract.py:
;   @definition.<kind> / @declaration.<kind> + @name, @owner   symbols
;   @import.<form> + @import.source, @import.alias             imports
;   @reference.<call|type|base> (+ @reference.receiver)        references
;   @comment, @metacall.function, @metacall.tag + @metacall.paths
; When two patterns capture the same node, the one written later wins.

; ---- definitions (a def whose parent symbol is a class becomes a method in the driver)
(function_definition name: (identifier) @name) @definition.function
(class_definition name: (identifier) @name) @definition.class

; ---- imports
(import_statement name: (dotted_name) @import.source) @import.import
(import_statement
  name: (aliased_import name: (dotted_name) @import.source alias: (identifier) @import.alias))
  @import.import
(import_from_statement) @import.from
(future_import_statement) @import.from

; ---- references
(call function: [(identifier) (attribute)] @reference.call)
(type [(identifier) (attribute)] @reference.type)
(generic_type (identifier) @reference.type)
(type (subscript value: [(identifier) (attribute)] @reference.type))
(type (subscript subscript: [(identifier) (attribute)] @reference.type))
(class_definition superclasses: (argument_list [(identifier) (attribute)] @reference.base))

; ---- comments and docstrings
(comment) @comment
(expression_statement (string) @comment)

; ---- metacall
(call
  function: (identifier) @_f (#eq? @_f "metacall")
  arguments: (argument_list . (string) @metacall.function))
(call
  function: (identifier) @_f (#eq? @_f "metacall_load_from_file")
  arguments: (argument_list . (string) @metacall.tag . (list) @metacall.paths))
