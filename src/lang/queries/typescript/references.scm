; TypeScript references (TSX: ../tsx/references.scm adds JSX). Capture conventions: see src/lang/extract.ts.
; Wildcard parents below the root: see symbols.scm.

; One pattern per parent type, alternatives for the child: each named parent step costs
; tree-sitter a pass over the parse table when the query is compiled.
(call_expression
  function: [
    (identifier) @ref.call
    (_ object: (_) @qualifier property: (_) @ref.call)
  ])
(new_expression
  constructor: [
    (identifier) @ref.call
    (_ object: (_) @qualifier property: (property_identifier) @ref.call)
  ])

(assignment_expression left: [(identifier) @ref.write (_ object: (_) @qualifier property: (_) @ref.write)])
(augmented_assignment_expression left: [(identifier) @ref.write (_ object: (_) @qualifier property: (_) @ref.write)])
; The argument is update_expression's only named child.
(update_expression (identifier) @ref.write)
; `this.n++` writes n as `n++` does (a member increment was a read).
(update_expression (member_expression object: (_) @qualifier property: (_) @ref.write))
(variable_declarator name: (identifier) @ref.write value: (_))

; Types.
(type_identifier) @ref.type
(nested_type_identifier module: (_) @qualifier name: (type_identifier) @ref.type)
; `typeof x` names the value x: its identifier is a read (below), which the resolver never takes
; to an interface or a type alias of the same name.

; A member_expression's property is a property_identifier or a private_property_identifier.
(member_expression object: (_) @qualifier property: (_) @ref.read)
(shorthand_property_identifier) @ref.read
(identifier) @ref.read

; Names that are not references to anything outside.
(required_parameter pattern: (identifier) @ref.ignore)
(optional_parameter pattern: (identifier) @ref.ignore)
(arrow_function parameter: (identifier) @ref.ignore)
(catch_clause parameter: (identifier) @ref.ignore)
(type_parameter name: (type_identifier) @ref.ignore)
(labeled_statement label: (statement_identifier) @ref.ignore)

; Local bindings (src/lang/extract.ts, LOCAL_SCOPES): uses of these names inside their scope are
; the local's, never an outer symbol's, and are not kept as references. `@local.type`: the type
; the declaration writes (or the class a `new` initializer names), which says whose member
; `name.m()` is (resolve.ts, receiver_type).
(required_parameter pattern: (identifier) @local type: (type_annotation (_) @local.type)?)
(required_parameter pattern: [(object_pattern) (array_pattern) (rest_pattern)] @local.pattern)
(optional_parameter pattern: (identifier) @local type: (type_annotation (_) @local.type)?)
(arrow_function parameter: (identifier) @local)
(catch_clause parameter: (identifier) @local)
(lexical_declaration (variable_declarator name: (identifier) @local type: (type_annotation (_) @local.type)?))
(lexical_declaration (variable_declarator name: (identifier) @local !type value: (new_expression constructor: [(identifier) (member_expression)] @local.type)))
; `@local.call`: `const x = f(...)` has f's declared return type (resolve.ts).
(lexical_declaration (variable_declarator name: (identifier) @local !type value: (call_expression function: (identifier) @local.call)))
; `@local.chain`: `const repo = dataSource.getRepository(Post)`, `const table = await
; queryRunner.getTable("post")`, `const user = await make()`: what the chain of calls gives (awaited:
; its promise's value), which resolution follows from the first call's receiver (resolve.ts chainValue).
(lexical_declaration (variable_declarator name: (identifier) @local !type value: [(call_expression function: (member_expression)) (await_expression (call_expression))] @local.chain))
(lexical_declaration (variable_declarator name: [(object_pattern) (array_pattern)] @local.pattern))
(variable_declaration (variable_declarator name: (identifier) @local.var type: (type_annotation (_) @local.type)?))
(variable_declaration (variable_declarator name: (identifier) @local.var !type value: (new_expression constructor: [(identifier) (member_expression)] @local.type)))
(variable_declaration (variable_declarator name: [(object_pattern) (array_pattern)] @local.var.pattern))
(for_in_statement kind: ["let" "const"] left: (identifier) @local)
; An element of a collection local: `for (const item of items)`, `items.forEach((item) => ...)`
; (the first parameter of an array method's callback, when the parameter writes no type of its
; own). The collection's declared type (`Item[]`, `Array<Item>`, `Set<Item>`) gives the element's.
(for_in_statement kind: ["let" "const"] left: (identifier) @local operator: "of" right: (identifier) @local.elem.of)
(call_expression
  function: (member_expression object: (identifier) @local.elem.of property: (property_identifier) @local.elem.method)
  arguments: (arguments . (arrow_function parameter: (identifier) @local)))
(call_expression
  function: (member_expression object: (identifier) @local.elem.of property: (property_identifier) @local.elem.method)
  arguments: (arguments . (arrow_function parameters: (formal_parameters . (required_parameter pattern: (identifier) @local !type)))))
(for_in_statement kind: ["let" "const"] left: [(object_pattern) (array_pattern)] @local.pattern)
(for_in_statement kind: "var" left: (identifier) @local.var)
[(function_declaration) (function_expression) (arrow_function) (method_definition) (generator_function_declaration) (generator_function) (class_static_block)] @local.fscope
[(statement_block) (for_statement) (for_in_statement) (catch_clause)] @local.scope
(class_body) @local.stop

; Decorators are applied where the class is made, not when what they decorate runs: their
; references are the enclosing scope's (extract.ts). A parameter's are its class's too.
(decorator) @decorator
(required_parameter (decorator) @decorator.param)
(optional_parameter (decorator) @decorator.param)
