; C patterns, also the first part of the C++ query (cpp.scm follows). Capture names: see
; python.scm. Prototypes are @declaration: they yield to a definition of the same name,
; and the driver ignores one inside a function body.

; ---- definitions
(function_definition
  declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(function_definition
  declarator: (pointer_declarator
    declarator: (function_declarator declarator: (identifier) @name))) @definition.function
(function_definition
  declarator: (pointer_declarator
    declarator: (pointer_declarator
      declarator: (function_declarator declarator: (identifier) @name)))) @definition.function
(declaration
  declarator: (function_declarator declarator: (identifier) @name)) @declaration.function
(declaration
  declarator: (pointer_declarator
    declarator: (function_declarator declarator: (identifier) @name))) @declaration.function
(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
(union_specifier name: (type_identifier) @name body: (_)) @definition.struct
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
; `typedef struct { … } Name;`
(type_definition
  type: (struct_specifier !name body: (_))
  declarator: (type_identifier) @name) @definition.struct
(type_definition
  type: (union_specifier !name body: (_))
  declarator: (type_identifier) @name) @definition.struct
(type_definition
  type: (enum_specifier !name body: (_))
  declarator: (type_identifier) @name) @definition.enum

; ---- imports
(preproc_include path: (string_literal) @import.source) @import.include-local
(preproc_include path: (system_lib_string) @import.source) @import.include-system

; ---- references
(call_expression function: [(identifier) (field_expression)] @reference.call)
(type_identifier) @reference.type

; ---- comments
(comment) @comment
