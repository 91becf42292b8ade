//go:build purego || !(amd64 || arm64)

package vec

// productsOn returns the pure-Go path's matrix-product kernels and blocks
// (products.go), the only path of this build.
func productsOn() *productKernels { return &productsGo }
