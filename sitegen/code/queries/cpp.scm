; C++ patterns, after c.scm. Namespaces are not symbols: their members are top level.
; An out-of-line `Foo::bar` definition is a method owned by Foo (@owner).

; ---- definitions
(class_specifier name: (type_identifier) @name body: (_)) @definition.class
(function_definition
  declarator: (function_declarator declarator: (field_identifier) @name)) @definition.function
(function_definition
  declarator: [
    (pointer_declarator declarator: (function_declarator declarator: (field_identifier) @name))
    (reference_declarator (function_declarator declarator: (field_identifier) @name))])
  @definition.function
(field_declaration
  declarator: (function_declarator declarator: (field_identifier) @name)) @declaration.function
(field_declaration
  declarator: [
    (pointer_declarator declarator: (function_declarator declarator: (field_identifier) @name))
    (reference_declarator (function_declarator declarator: (field_identifier) @name))])
  @declaration.function
(function_definition
  declarator: (function_declarator
    declarator: (qualified_identifier
      scope: (_) @owner
      name: [(identifier) (destructor_name)] @name))) @definition.method
(function_definition
  declarator: (function_declarator
    declarator: (qualified_identifier
      name: (qualified_identifier
        scope: (_) @owner
        name: [(identifier) (destructor_name)] @name)))) @definition.method
(function_definition
  declarator: [
    (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
      scope: (_) @owner name: [(identifier) (destructor_name)] @name)))
    (reference_declarator (function_declarator declarator: (qualified_identifier
      scope: (_) @owner name: [(identifier) (destructor_name)] @name)))])
  @definition.method

; ---- references
(call_expression function: (qualified_identifier) @reference.call)
(call_expression function: (template_function name: (identifier) @reference.call))
(qualified_identifier scope: (namespace_identifier) name: (type_identifier)) @reference.type
(base_class_clause [(type_identifier) (qualified_identifier)] @reference.base)
(base_class_clause (template_type name: (type_identifier) @reference.base))
