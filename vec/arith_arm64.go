//go:build !purego

package vec

var arithNEON = arithKernels{
	f32: arithWith([arithOps]func(dst, x, y, z *float32, n int, a, b float32){
		addF32NEON, subF32NEON, mulF32NEON, divF32NEON, addConstF32NEON, mulConstF32NEON, divConstF32NEON,
		mulAddConstF32NEON, addMulConstF32NEON, mulAddF32NEON,
	}, 8, 16),
	f64: arithWith([arithOps]func(dst, x, y, z *float64, n int, a, b float64){
		addF64NEON, subF64NEON, mulF64NEON, divF64NEON, addConstF64NEON, mulConstF64NEON, divConstF64NEON,
		mulAddConstF64NEON, addMulConstF64NEON, mulAddF64NEON,
	}, 4, 16),
	sqDistConstF32: sqDistConstWith(sqDistConstF32NEON, 4, 16),
	sqDistConstF64: sqDistConstWith(sqDistConstF64NEON, 2, 16),
}

// The assembly kernels of arith_neon_arm64.s: whole vectors only, in the order of the arithOps.

func addF32NEON(dst, x, y, z *float32, n int, a, b float32)
func subF32NEON(dst, x, y, z *float32, n int, a, b float32)
func mulF32NEON(dst, x, y, z *float32, n int, a, b float32)
func divF32NEON(dst, x, y, z *float32, n int, a, b float32)
func addConstF32NEON(dst, x, y, z *float32, n int, a, b float32)
func mulConstF32NEON(dst, x, y, z *float32, n int, a, b float32)
func divConstF32NEON(dst, x, y, z *float32, n int, a, b float32)
func mulAddConstF32NEON(dst, x, y, z *float32, n int, a, b float32)
func addMulConstF32NEON(dst, x, y, z *float32, n int, a, b float32)
func mulAddF32NEON(dst, x, y, z *float32, n int, a, b float32)
func addF64NEON(dst, x, y, z *float64, n int, a, b float64)
func subF64NEON(dst, x, y, z *float64, n int, a, b float64)
func mulF64NEON(dst, x, y, z *float64, n int, a, b float64)
func divF64NEON(dst, x, y, z *float64, n int, a, b float64)
func addConstF64NEON(dst, x, y, z *float64, n int, a, b float64)
func mulConstF64NEON(dst, x, y, z *float64, n int, a, b float64)
func divConstF64NEON(dst, x, y, z *float64, n int, a, b float64)
func mulAddConstF64NEON(dst, x, y, z *float64, n int, a, b float64)
func addMulConstF64NEON(dst, x, y, z *float64, n int, a, b float64)
func mulAddF64NEON(dst, x, y, z *float64, n int, a, b float64)
func sqDistConstF32NEON(p *float32, n int, c float64) (hi, lo float64)
func sqDistConstF64NEON(p *float64, n int, c float64) (hi, lo float64)
