; inherits: typescript
; TSX symbols: exactly the TypeScript ones (the TSX grammar has the same node types for them).
