; Python references. Capture conventions: see src/lang/extract.ts.
; Below the root, `(_ object: attribute:)` is an attribute (the only node type with those fields).

(call function: (identifier) @ref.call)
(call function: (_ object: (_) @qualifier attribute: (identifier) @ref.call))
(decorator (identifier) @ref.call)
(decorator (_ object: (_) @qualifier attribute: (identifier) @ref.call))
; Applied where the definition is made: its references are the enclosing scope's (extract.ts).
(decorator) @decorator

(assignment left: (identifier) @ref.write)
(assignment left: (_ object: (_) @qualifier attribute: (identifier) @ref.write))
(augmented_assignment left: (identifier) @ref.write)
(augmented_assignment left: (_ object: (_) @qualifier attribute: (identifier) @ref.write))
(pattern_list (identifier) @ref.write)
(for_statement left: (identifier) @ref.write)

(type (identifier) @ref.type)
(type (_ object: (_) @qualifier attribute: (identifier) @ref.type))
(type (generic_type (identifier) @ref.type))
(class_definition superclasses: (argument_list (identifier) @ref.type))
(class_definition superclasses: (argument_list (_ object: (_) @qualifier attribute: (identifier) @ref.type)))

(attribute object: (_) @qualifier attribute: (identifier) @ref.read)
(identifier) @ref.read

; Names that are not references to anything outside.
(parameters (identifier) @ref.ignore)
(lambda_parameters (identifier) @ref.ignore)
(default_parameter name: (identifier) @ref.ignore)
(typed_parameter (identifier) @ref.ignore)
(typed_default_parameter name: (identifier) @ref.ignore)
(list_splat_pattern (identifier) @ref.ignore)
(dictionary_splat_pattern (identifier) @ref.ignore)
(keyword_argument name: (identifier) @ref.ignore)
(dotted_name (identifier) @ref.ignore)
(aliased_import alias: (identifier) @ref.ignore)

; Local bindings (src/lang/extract.ts, LOCAL_SCOPES): uses of these names inside their scope are
; the local's, never an outer symbol's, and are not kept as references.
(parameters (identifier) @local)
(lambda_parameters (identifier) @local)
(default_parameter name: (identifier) @local)
; `@local.type`: the annotation (or the class a `Foo(...)` assignment makes), which says whose
; member `name.m()` is (resolve.ts, receiver_type).
(typed_parameter (identifier) @local type: (type) @local.type)
(typed_default_parameter name: (identifier) @local type: (type) @local.type)
(list_splat_pattern (identifier) @local)
(dictionary_splat_pattern (identifier) @local)
(assignment left: (identifier) @local type: (type)? @local.type)
; `@local.call`: the callee of `x = f(...)`: a capitalised one is a class the call makes, another
; a function whose declared return type x has (resolve.ts).
(assignment left: (identifier) @local !type right: (call function: [(identifier) (attribute)] @local.call))
; `@local.chain`: `x = self.client.get(url)`, `x = await repo.find()`: what the chain of calls gives,
; which resolution follows from the first call's receiver (a method's, not a class's: `mod.Class()`
; is `@local.call`'s).
(assignment left: (identifier) @local !type right: [(call function: (attribute)) (await (call))] @local.chain)
(assignment left: [(pattern_list) (tuple_pattern) (list_pattern)] @local.pattern)
(augmented_assignment left: (identifier) @local)
(named_expression name: (identifier) @local)
(for_statement left: (identifier) @local)
; An element of a collection local: `for item in items` with items a `list[Item]` is an Item.
(for_statement left: (identifier) @local right: (identifier) @local.elem.of)
(for_in_clause left: (identifier) @local right: (identifier) @local.elem.of)
(for_statement left: [(pattern_list) (tuple_pattern) (list_pattern)] @local.pattern)
(for_in_clause left: (identifier) @local)
(for_in_clause left: [(pattern_list) (tuple_pattern) (list_pattern)] @local.pattern)
(as_pattern_target (identifier) @local)
; `with X() as v`: v is what X()'s `__enter__` returns (`__aenter__`'s, awaited, under `async with`),
; which resolution reads as a chain of calls on the value made (resolve.ts chainValue).
(with_item value: (as_pattern (call) @local.enter alias: (as_pattern_target (identifier) @local)))
; `match` capture patterns: `case [item, *rest]`, `case Point(x=px) as whole`, `case {"k": val}`,
; `case other` (a dotted `case Color.RED` is a value, not a capture).
(case_pattern (dotted_name . (identifier) @local .))
(keyword_pattern (dotted_name . (identifier) @local .))
(splat_pattern (identifier) @local)
(as_pattern (case_pattern) (identifier) @local)
; `self.x = ...` in a class's methods: what x holds, which says whose member `self.x.m()` is in
; that class (extract.ts attrTypes): the annotation, the class or function called, or the
; parameter assigned; any other assignment of it leaves it no one type.
(assignment left: (attribute object: (identifier) @_self attribute: (identifier) @local.attr) type: (type) @local.type (#eq? @_self "self"))
(assignment left: (attribute object: (identifier) @_self attribute: (identifier) @local.attr) !type right: (call function: [(identifier) (attribute)] @local.call) (#eq? @_self "self"))
(assignment left: (attribute object: (identifier) @_self attribute: (identifier) @local.attr) !type right: (identifier) @local.from (#eq? @_self "self"))
(assignment left: (attribute object: (identifier) @_self attribute: (identifier) @local.attr) (#eq? @_self "self"))
(global_statement (identifier) @local.global)
(nonlocal_statement (identifier) @local.global)
(function_definition body: (_) @local.body) @local.fscope
(lambda body: (_) @local.body) @local.fscope
[(list_comprehension) (set_comprehension) (dictionary_comprehension) (generator_expression)] @local.scope
(class_definition) @local.stop
