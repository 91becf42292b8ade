//go:build purego || !(amd64 || arm64)

package vec

// The pure-Go path's matrix-product kernels and blocks (products.go), the
// only path of this build.

func productsOn() *productKernels { return &productsGo }

func sqDistsF32Kernel(dst, a, b []float32, n, m, k int) { sqDistsGo(dst, a, b, n, m, k) }
