//go:build !go1.25

package vec

import "runtime"

// restoreProcs sets GOMAXPROCS back to n after a split raised it (before Go
// 1.25 the runtime never updates it on its own).
func restoreProcs(n int) { runtime.GOMAXPROCS(n) }
