; Rust patterns. Capture names: see python.scm. Inline `mod m { … }` blocks are not
; symbols (like C++ namespaces); `mod m;` is an import. Methods in `impl T` are owned by T.

; ---- definitions
(function_item name: (identifier) @name) @definition.function
(struct_item name: (type_identifier) @name) @definition.struct
(union_item name: (type_identifier) @name) @definition.struct
(enum_item name: (type_identifier) @name) @definition.enum
(trait_item name: (type_identifier) @name) @definition.trait
(impl_item
  type: (_) @owner
  body: (declaration_list (function_item name: (identifier) @name) @definition.method))

; ---- imports (use trees are expanded by sitegen/code/dialects.py)
(mod_item name: (identifier) @import.source !body) @import.mod
(use_declaration) @import.use
; `extern crate grep_cli as cli;`: the crate, bound under its alias
(extern_crate_declaration name: (identifier) @import.source alias: (identifier)? @import.alias) @import.extern-crate

; ---- references
(call_expression
  function: [(identifier) (scoped_identifier) (field_expression)] @reference.call)
(type_identifier) @reference.type
(scoped_type_identifier) @reference.type
(impl_item trait: [(type_identifier) (scoped_type_identifier)] @reference.base type: (_) @owner)
(impl_item
  trait: (generic_type type: [(type_identifier) (scoped_type_identifier)] @reference.base)
  type: (_) @owner)
(trait_item bounds: (trait_bounds [(type_identifier) (scoped_type_identifier)] @reference.base))

; ---- comments
(line_comment) @comment
(block_comment) @comment
