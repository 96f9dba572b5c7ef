; Java references. Capture conventions: see src/lang/extract.ts.

; @args: the argument list, whose length tells overloads apart (extract.ts argumentCount).
(method_invocation object: (_) @qualifier name: (identifier) @ref.call arguments: (_) @args)
(method_invocation name: (identifier) @ref.call arguments: (_) @args)
(object_creation_expression type: (type_identifier) @ref.call arguments: (_) @args)
(object_creation_expression type: (generic_type (type_identifier) @ref.call) arguments: (_) @args)
(object_creation_expression type: (scoped_type_identifier (_) @qualifier . (type_identifier) @ref.call .) arguments: (_) @args)
(method_reference (_) @qualifier . (identifier) @ref.call .)

(assignment_expression left: (identifier) @ref.write)
(assignment_expression left: (field_access object: (_) @qualifier field: (identifier) @ref.write))
(update_expression (identifier) @ref.write)
; `this.n++` writes n as `n++` does (a field increment was a read).
(update_expression (field_access object: (_) @qualifier field: (identifier) @ref.write))
(local_variable_declaration declarator: (variable_declarator name: (identifier) @ref.write))

(type_identifier) @ref.type
(scoped_type_identifier (_) @qualifier . (type_identifier) @ref.type .)
(annotation name: (identifier) @ref.type)
(marker_annotation name: (identifier) @ref.type)

(field_access object: (_) @qualifier field: (identifier) @ref.read)
(identifier) @ref.read

; Names that are not references to anything outside.
(formal_parameter name: (identifier) @ref.ignore)
(spread_parameter (variable_declarator name: (identifier) @ref.ignore))
(catch_formal_parameter name: (identifier) @ref.ignore)
(lambda_expression parameters: (identifier) @ref.ignore)
(inferred_parameters (identifier) @ref.ignore)
(package_declaration (scoped_identifier) @ref.ignore)
(package_declaration (identifier) @ref.ignore)
(import_declaration (scoped_identifier scope: (_) @ref.ignore))
(scoped_identifier scope: (identifier) @ref.ignore)
(labeled_statement (identifier) @ref.ignore)
(type_parameter (type_identifier) @ref.ignore)

; Local bindings (src/lang/extract.ts, LOCAL_SCOPES): uses of these names inside their scope are
; the local's, never an outer symbol's, and are not kept as references. `@local.type`: the type
; the declaration writes, which says whose member `name.m()` is (resolve.ts, receiver_type).
(formal_parameter type: (_) @local.type name: (identifier) @local)
; A varargs parameter (`final Object... array`) is an array of the type before `...`: `array.length`
; was a guess among the repository's `length` fields (commons-lang: 130 such reads).
(spread_parameter (_) @local.type.varargs . "..." . (variable_declarator name: (identifier) @local))
(spread_parameter (variable_declarator name: (identifier) @local))
(catch_formal_parameter name: (identifier) @local)
; `catch (IOException e)` (one type; a multi-catch `A | B` names no one type), `try (Foo f = ...)`,
; `o instanceof Foo f`: the type written.
(catch_formal_parameter (catch_type . (_) @local.type .) name: (identifier) @local)
(local_variable_declaration type: (_) @local.type declarator: (variable_declarator name: (identifier) @local))
; `var b = new Builder()`: the class created.
(local_variable_declaration type: (type_identifier) @_var (#eq? @_var "var") declarator: (variable_declarator name: (identifier) @local value: (object_creation_expression type: (_) @local.type)))
; `var c = s.dial(addr)`: what the chain of calls gives (a type the declaration writes wins).
(local_variable_declaration declarator: (variable_declarator name: (identifier) @local value: (method_invocation) @local.chain))
(enhanced_for_statement type: (_) @local.type name: (identifier) @local)
(lambda_expression parameters: (identifier) @local)
; An element of a collection local: `for (var item : items)`, `items.forEach(item -> ...)` with
; items a `List<Item>` (or `Item[]`) is an Item (a type written in the loop wins).
(enhanced_for_statement name: (identifier) @local value: (identifier) @local.elem.of)
(method_invocation
  object: (identifier) @local.elem.of
  name: (identifier) @local.elem.method
  arguments: (argument_list . (lambda_expression parameters: (identifier) @local)))
(inferred_parameters (identifier) @local)
(resource type: (_) @local.type name: (identifier) @local)
; Pattern variables: `o instanceof Integer n` (in force to the end of the enclosing block, which
; covers `if (!(o instanceof T t)) return; t...`), `case Integer n ->`, `case Point(int x, int y) ->`.
(instanceof_expression right: (_) @local.type name: (identifier) @local)
(type_pattern (identifier) @local)
(record_pattern_component (identifier) @local)
[(block) (method_declaration) (constructor_declaration) (compact_constructor_declaration) (lambda_expression) (for_statement) (enhanced_for_statement) (catch_clause) (try_with_resources_statement) (switch_block_statement_group) (switch_rule)] @local.scope
[(class_body) (interface_body) (enum_body) (record_declaration)] @local.stop
