//go:build go1.25

package vec

import "runtime"

// restoreProcs sets GOMAXPROCS back to n after a split raised it. Since Go
// 1.25 setting GOMAXPROCS ends the runtime's own updates of it (to the CPU
// limit of a container as it changes): where n is the runtime's default,
// the default is restored with its updates.
func restoreProcs(n int) {
	runtime.SetDefaultGOMAXPROCS()
	if runtime.GOMAXPROCS(0) != n {
		runtime.GOMAXPROCS(n)
	}
}
