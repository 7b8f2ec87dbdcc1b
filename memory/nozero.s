// Present so that nozero.go may declare mallocgc without a body (the
// compiler requires function bodies in packages without assembly).
