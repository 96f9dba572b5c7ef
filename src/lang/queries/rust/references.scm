; Rust references. Capture conventions: see src/lang/extract.ts.
; Below the root, wildcards pinned by fields stand for the one node type that has them there:
; `(_ path: name:)` a scoped_identifier, `(_ value: field:)` a field_expression, `(_ function:
; type_arguments:)` a generic_function (see symbols.scm for why).

(call_expression function: (identifier) @ref.call)
(call_expression function: (_ path: (_) @qualifier name: (identifier) @ref.call))
(call_expression function: (_ value: (_) @qualifier field: (field_identifier) @ref.call))
(call_expression function: (_ function: (identifier) @ref.call type_arguments: (_)))
(call_expression function: (_ function: (_ path: (_) @qualifier name: (identifier) @ref.call) type_arguments: (_)))
(call_expression function: (_ function: (_ value: (_) @qualifier field: (field_identifier) @ref.call) type_arguments: (_)))
(macro_invocation macro: (identifier) @ref.call)
(macro_invocation macro: (_ path: (_) @qualifier name: (identifier) @ref.call))
; Calls inside a macro's arguments, which tree-sitter leaves as tokens (`assert_eq!(t.len(), 2)`,
; `format!("{}", self.x.name())`, `vec![Foo::new(1)]`): a name right before a parenthesized
; token tree, with the `.`/`::` path of tokens before it as its qualifier (@adjacent: extract.ts).
(token_tree [(identifier) (self)] @qualifier . "." . (identifier) @qualifier . "." . (identifier) @ref.call . (token_tree . "(") @adjacent)
(token_tree [(identifier) (self)] @qualifier . "." . (identifier) @ref.call . (token_tree . "(") @adjacent)
(token_tree (identifier) @qualifier . "::" . (identifier) @ref.call . (token_tree . "(") @adjacent)
; (`T::new().name()`: a call on a value, not of a free function `name`.)
(token_tree (token_tree . "(") @qualifier . "." . (identifier) @ref.call . (token_tree . "(") @adjacent)
(token_tree (identifier) @ref.call . (token_tree . "(") @adjacent)

(assignment_expression left: (identifier) @ref.write)
(assignment_expression left: (_ value: (_) @qualifier field: (field_identifier) @ref.write))
(compound_assignment_expr left: (identifier) @ref.write)
(compound_assignment_expr left: (_ value: (_) @qualifier field: (field_identifier) @ref.write))
(let_declaration pattern: (identifier) @ref.write)

(type_identifier) @ref.type
(scoped_type_identifier path: (_) @qualifier name: (type_identifier) @ref.type)
(struct_expression name: (type_identifier) @ref.call)
; A struct literal's `n: value` writes the field n of the struct it names (`Self`, `T`, `m::T`).
(struct_expression name: (_) @qualifier body: (field_initializer_list (field_initializer field: (field_identifier) @ref.write)))

(field_expression value: (_) @qualifier field: (field_identifier) @ref.read)
(scoped_identifier path: (_) @qualifier name: (identifier) @ref.read)
(identifier) @ref.read

; Names that are not references to anything outside.
(parameter pattern: (identifier) @ref.ignore)
(closure_parameters (identifier) @ref.ignore)
(type_parameter name: (type_identifier) @ref.ignore)
(use_declaration argument: (identifier) @ref.ignore)
(use_declaration argument: (_ path: (identifier) @ref.ignore name: (_)))
(scoped_use_list path: (identifier) @ref.ignore)
(scoped_use_list path: (_ path: (identifier) @ref.ignore name: (identifier) @ref.ignore))
(scoped_use_list path: (_ name: (identifier) @ref.ignore))
(use_as_clause path: (_ path: (identifier) @ref.ignore))
(use_wildcard (identifier) @ref.ignore)

; Local bindings (src/lang/extract.ts, LOCAL_SCOPES): uses of these names inside their scope are
; the local's, never an outer symbol's, and are not kept as references.
; `@local.type`: the type the declaration writes (or the struct a literal or `T::new()` makes),
; which says whose member `name.m()` is (resolve.ts, receiver_type).
(parameter pattern: (identifier) @local type: (_) @local.type)
(parameter pattern: [(tuple_pattern) (mut_pattern) (ref_pattern) (reference_pattern) (slice_pattern)] @local.pattern)
(closure_parameters (identifier) @local)
(let_declaration pattern: (identifier) @local type: (_)? @local.type) @local.after
(let_declaration pattern: (identifier) @local !type value: [(struct_expression name: (type_identifier) @local.type) (call_expression function: (scoped_identifier path: [(identifier) (scoped_identifier)] @local.type name: (identifier) @_new (#eq? @_new "new")))]) @local.after
(let_declaration pattern: [(tuple_pattern) (mut_pattern) (ref_pattern) (reference_pattern) (slice_pattern)] @local.pattern) @local.after
(for_expression pattern: (identifier) @local)
(for_expression pattern: [(tuple_pattern) (mut_pattern) (ref_pattern) (reference_pattern) (slice_pattern)] @local.pattern)
(let_condition pattern: (_) @local.pattern)
(match_arm pattern: (match_pattern) @local.pattern)
[(block) (function_item) (closure_expression) (for_expression) (if_expression) (while_expression) (match_arm)] @local.scope
[(declaration_list) (field_declaration_list)] @local.stop
