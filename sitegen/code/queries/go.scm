; Go patterns. Capture names: see python.scm. A method belongs to its receiver's type
; (@owner); only struct and interface type declarations are symbols.

; ---- definitions
(function_declaration name: (identifier) @name) @definition.function
(method_declaration
  receiver: (parameter_list (parameter_declaration type: (_) @owner))
  name: (field_identifier) @name) @definition.method
(type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface

; ---- imports
(import_spec name: (_)? @import.alias path: (_) @import.source) @import.go

; ---- references
(call_expression function: [(identifier) (selector_expression)] @reference.call)
(type_identifier) @reference.type
(qualified_type) @reference.type
; embedding: a struct field without a name, an interface's type element
(field_declaration !name type: [(type_identifier) (qualified_type)] @reference.base)
(field_declaration !name
  type: (pointer_type [(type_identifier) (qualified_type)] @reference.base))
(interface_type (type_elem [(type_identifier) (qualified_type)] @reference.base))

; ---- comments
(comment) @comment
