//go:build purego || !amd64

package vec

// selection returns the selection kernels of the active path: pure Go here
// (arm64 has no NEON selection kernels yet).
func selection() *selectKernels { return &goSelect }
