; TypeScript and TSX patterns, after ecmascript.scm. Type aliases are recorded as
; interfaces: a type use must find them, and no closer kind exists.

; ---- definitions
(abstract_class_declaration name: (type_identifier) @name) @definition.class
(interface_declaration name: (type_identifier) @name) @definition.interface
(type_alias_declaration name: (type_identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(abstract_method_signature name: (property_identifier) @name) @declaration.method
; `declare function f(): T;` and overload signatures, as in .d.ts files
(function_signature name: (identifier) @name) @declaration.function

; ---- imports: `import fs = require("fs")`
(import_statement (import_require_clause source: (string) @import.source)) @import.import

; ---- references
(type_identifier) @reference.type
(nested_type_identifier) @reference.type
(generic_type name: [(type_identifier) (nested_type_identifier)] @reference.type)
(extends_clause value: [(identifier) (member_expression)] @reference.base)
(implements_clause [(type_identifier) (nested_type_identifier)] @reference.base)
(extends_type_clause type: [(type_identifier) (nested_type_identifier)] @reference.base)
