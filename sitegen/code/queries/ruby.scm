; Ruby patterns. Capture names: see python.scm. A module is an `object`; `def self.x` is a
; method; `class A::B` is named B. Visibility sections are read by sitegen/code/dialects.py.

; ---- definitions
(class name: [(constant) @name (scope_resolution name: (constant) @name)]) @definition.class
(module name: [(constant) @name (scope_resolution name: (constant) @name)]) @definition.object
(method name: (_) @name) @definition.function
(singleton_method name: (_) @name) @definition.method

; ---- imports
(call
  !receiver
  method: (identifier) @_m (#eq? @_m "require")
  arguments: (argument_list . (string) @import.source)) @import.require
(call
  !receiver
  method: (identifier) @_m (#eq? @_m "require_relative")
  arguments: (argument_list . (string) @import.source)) @import.require_relative
; autoload :Const, "path" (also Mod.autoload(:Const, "path")): loaded by require's rules
(call
  method: (identifier) @_m (#eq? @_m "autoload")
  arguments: (argument_list . (simple_symbol) . (string) @import.source)) @import.autoload

; ---- references
(call receiver: (_)? @reference.receiver method: (identifier) @reference.call)
(superclass [(constant) (scope_resolution)] @reference.base)

; ---- comments
(comment) @comment

; ---- metacall
(call
  !receiver
  method: (identifier) @_f (#eq? @_f "metacall")
  arguments: (argument_list . (string) @metacall.function))
(call
  !receiver
  method: (identifier) @_f (#eq? @_f "metacall_load_from_file")
  arguments: (argument_list . (string) @metacall.tag . (array) @metacall.paths))
