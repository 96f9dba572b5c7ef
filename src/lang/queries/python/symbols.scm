; Python definitions. Capture conventions: see src/lang/extract.ts.
; A decorated definition's span includes its decorators. Earlier patterns win.

(class_definition body: (block (decorated_definition definition: (function_definition name: (identifier) @name (#eq? @name "__init__"))) @def.constructor))
(class_definition body: (block (function_definition name: (identifier) @name (#eq? @name "__init__")) @def.constructor))
(class_definition body: (block (decorated_definition definition: (function_definition name: (identifier) @name)) @def.method))
(class_definition body: (block (function_definition name: (identifier) @name) @def.method))

(decorated_definition definition: (function_definition name: (identifier) @name)) @def.function
(block (function_definition name: (identifier) @name) @def.function)
(module (function_definition name: (identifier) @name) @def.function)

(decorated_definition definition: (class_definition name: (identifier) @name)) @def.class
(block (class_definition name: (identifier) @name) @def.class)
(module (class_definition name: (identifier) @name) @def.class)

; Functions bound to names: `f = lambda x: ...`
(module (expression_statement (assignment left: (identifier) @name right: (lambda)) @def.function))

; Module-level variables (ALL_CAPS ones are constants), also inside module-level if/try/with.
(module (expression_statement (assignment left: (identifier) @name (#match? @name "^_*[A-Z][A-Z0-9_]*$")) @def.constant))
(module (expression_statement (assignment left: (identifier) @name) @def.variable))
(module (expression_statement (assignment left: (pattern_list (identifier) @name)) @def.variable))
(module (expression_statement (assignment left: (tuple_pattern (identifier) @name)) @def.variable))
(module (if_statement consequence: (block (expression_statement (assignment left: (identifier) @name) @def.variable))))
(module (if_statement alternative: (_ body: (block (expression_statement (assignment left: (identifier) @name) @def.variable)))))
(module (try_statement body: (block (expression_statement (assignment left: (identifier) @name) @def.variable))))
(module (try_statement (_ (block (expression_statement (assignment left: (identifier) @name) @def.variable)))))

; Class attributes.
(class_definition body: (block (expression_statement (assignment left: (identifier) @name) @def.field)))
