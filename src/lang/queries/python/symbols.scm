; Python definitions. Capture conventions: see src/lang/extract.ts.
; A decorated definition's span includes its decorators. Earlier patterns win.
; Below a pattern's root some nodes are wildcards that only one node type can be in that place
; (a body or consequence is a block; `(_ !operator left:)` under expression_statement is an
; assignment; a definition or block child with parameters: is a function_definition, a
; definition without, a class_definition): they match the same nodes, and tree-sitter skips
; wildcard parents in the analysis it runs when it compiles a query.

(class_definition body: (_ (decorated_definition definition: (_ name: (identifier) @name parameters: (_) (#eq? @name "__init__"))) @def.constructor))
(class_definition body: (_ (_ name: (identifier) @name parameters: (_) (#eq? @name "__init__")) @def.constructor))
(class_definition body: (_ (decorated_definition definition: (_ name: (identifier) @name parameters: (_))) @def.method))
(class_definition body: (_ (_ name: (identifier) @name parameters: (_)) @def.method))

(decorated_definition definition: (_ name: (identifier) @name parameters: (_))) @def.function
(block (function_definition name: (identifier) @name) @def.function)
(module (function_definition name: (identifier) @name) @def.function)

(decorated_definition definition: (_ name: (identifier) @name !parameters)) @def.class
(block (class_definition name: (identifier) @name) @def.class)
(module (class_definition name: (identifier) @name) @def.class)

; Functions bound to names: `f = lambda x: ...`
(module (expression_statement (_ !operator left: (identifier) @name right: (lambda)) @def.function))

; Module-level variables (ALL_CAPS ones are constants), also inside module-level if/try/with.
(module (expression_statement (_ !operator left: (identifier) @name (#match? @name "^_*[A-Z][A-Z0-9_]*$")) @def.constant))
(module (expression_statement (_ !operator left: (identifier) @name) @def.variable))
(module (expression_statement (_ !operator left: (pattern_list (identifier) @name)) @def.variable))
(module (expression_statement (_ !operator left: (tuple_pattern (identifier) @name)) @def.variable))
(module (if_statement consequence: (_ (expression_statement (_ !operator left: (identifier) @name) @def.variable))))
(module (if_statement alternative: (_ body: (_ (expression_statement (_ !operator left: (identifier) @name) @def.variable)))))
(module (try_statement body: (_ (expression_statement (_ !operator left: (identifier) @name) @def.variable))))
(module (try_statement (_ (block (expression_statement (_ !operator left: (identifier) @name) @def.variable)))))

; Class attributes.
(class_definition body: (_ (expression_statement (_ !operator left: (identifier) @name) @def.field)))

; Any depth of if/try/with/for/while: @toplevel drops the match when it lands inside a def or
; class. Last, so that the patterns above (class attributes) win for the same name.
(block (expression_statement (_ !operator left: (identifier) @name) @def.variable @toplevel))

; `@overload` / `@typing.overload` stubs: symbols, but a call reaches the implementation after them.
(decorated_definition (decorator [(identifier) @_o (attribute attribute: (identifier) @_o)] (#eq? @_o "overload"))) @flag.overload

; A definition in a branch of an `if`/`else` or `try`/`except` is one of the alternatives of its
; name (click's `if WIN: def _get_argv_encoding(): ... else: def _get_argv_encoding(): ...`): the
; graph commands keep them alive together, and callers of one list the calls tied to another.
(if_statement consequence: (block [(function_definition) (decorated_definition) (class_definition)] @flag.variant))
(elif_clause consequence: (block [(function_definition) (decorated_definition) (class_definition)] @flag.variant))
(else_clause body: (block [(function_definition) (decorated_definition) (class_definition)] @flag.variant))
(try_statement body: (block [(function_definition) (decorated_definition) (class_definition)] @flag.variant))
(except_clause (block [(function_definition) (decorated_definition) (class_definition)] @flag.variant))

; A class's bases (resolution finds inherited members through them); keyword arguments
; (metaclass=) name no base to look in.
(class_definition superclasses: (argument_list [(identifier) (attribute)] @base)) @base.of
(decorated_definition definition: (class_definition superclasses: (argument_list [(identifier) (attribute)] @base))) @base.of
; A generic base, `class Choice(ParamType[_ValueT_co], t.Generic[_ValueT_co])`, is its class
; (click's every ParamType subclass had no base, so renaming ParamType.shell_complete left the
; overrides in Choice, Path and File behind); typing's `Generic[T]` itself is no class to look in.
(class_definition superclasses: (argument_list (subscript value: [(identifier) (attribute)] @base (#not-match? @base "^(typing\\.|t\\.)?Generic$")))) @base.of
(decorated_definition definition: (class_definition superclasses: (argument_list (subscript value: [(identifier) (attribute)] @base (#not-match? @base "^(typing\\.|t\\.)?Generic$"))))) @base.of

; A class attribute's annotation when it names one type (`repo: Repo`, `cache: Optional[Cache]`):
; resolution follows `self.repo.m()` through it.
(class_definition body: (_ (expression_statement (assignment left: (identifier) type: (type [(identifier) (attribute)] @type)) @type.of)))
; A function's declared return type (`-> Engine`, `-> Optional[Engine]`): what `x = make()` holds.
(function_definition return_type: (type [(identifier) (attribute)] @type)) @type.of
(decorated_definition definition: (function_definition return_type: (type [(identifier) (attribute)] @type))) @type.of
; A forward reference, `-> "Response"` (resolution reads the name inside the quotes).
(function_definition return_type: (type (string) @type)) @type.of
(decorated_definition definition: (function_definition return_type: (type (string) @type))) @type.of
(function_definition return_type: (type (generic_type (identifier) @_o (#eq? @_o "Optional") (type_parameter (type [(identifier) (attribute)] @type))))) @type.of
(decorated_definition definition: (function_definition return_type: (type (generic_type (identifier) @_o (#eq? @_o "Optional") (type_parameter (type [(identifier) (attribute)] @type)))))) @type.of
; `-> Context | None`, `cache: Cache | None` (PEP 604): extraction keeps the one type that is not
; None, and none of a union of two (click's `get_current_context() -> Context | None`).
(function_definition return_type: (type (binary_operator) @type)) @type.of
(decorated_definition definition: (function_definition return_type: (type (binary_operator) @type))) @type.of
(class_definition body: (_ (expression_statement (assignment left: (identifier) type: (type (binary_operator) @type)) @type.of)))
(class_definition body: (_ (expression_statement (assignment left: (identifier) type: (type (generic_type (identifier) @_o (#eq? @_o "Optional") (type_parameter (type [(identifier) (attribute)] @type))))) @type.of)))
; `-> t.Optional[Context]` with `import typing as t` (click writes every annotation so): a subscript
; of the module's Optional.
(function_definition return_type: (type (subscript value: (attribute attribute: (identifier) @_o (#eq? @_o "Optional")) subscript: [(identifier) (attribute)] @type))) @type.of
(decorated_definition definition: (function_definition return_type: (type (subscript value: (attribute attribute: (identifier) @_o (#eq? @_o "Optional")) subscript: [(identifier) (attribute)] @type)))) @type.of
(class_definition body: (_ (expression_statement (assignment left: (identifier) type: (type (subscript value: (attribute attribute: (identifier) @_o (#eq? @_o "Optional")) subscript: [(identifier) (attribute)] @type))) @type.of)))
