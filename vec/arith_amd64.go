//go:build !purego

package vec

var arithAVX512 = arithKernels{
	f32: arithWith([arithOps]func(dst, x, y, z *float32, n int, a, b float32){
		addF32AVX512, subF32AVX512, mulF32AVX512, divF32AVX512, addConstF32AVX512, mulConstF32AVX512,
		divConstF32AVX512, mulAddConstF32AVX512, addMulConstF32AVX512, mulAddF32AVX512,
	}, 16, 64),
	f64: arithWith([arithOps]func(dst, x, y, z *float64, n int, a, b float64){
		addF64AVX512, subF64AVX512, mulF64AVX512, divF64AVX512, addConstF64AVX512, mulConstF64AVX512,
		divConstF64AVX512, mulAddConstF64AVX512, addMulConstF64AVX512, mulAddF64AVX512,
	}, 8, 64),
	sqDistConstF32: sqDistConstWith(sqDistConstF32AVX512, 8, 64),
	sqDistConstF64: sqDistConstWith(sqDistConstF64AVX512, 8, 64),
}

var arithAVX2 = arithKernels{
	f32: arithWith([arithOps]func(dst, x, y, z *float32, n int, a, b float32){
		addF32AVX2, subF32AVX2, mulF32AVX2, divF32AVX2, addConstF32AVX2, mulConstF32AVX2,
		divConstF32AVX2, mulAddConstF32AVX2, addMulConstF32AVX2, mulAddF32AVX2,
	}, 8, 32),
	f64: arithWith([arithOps]func(dst, x, y, z *float64, n int, a, b float64){
		addF64AVX2, subF64AVX2, mulF64AVX2, divF64AVX2, addConstF64AVX2, mulConstF64AVX2,
		divConstF64AVX2, mulAddConstF64AVX2, addMulConstF64AVX2, mulAddF64AVX2,
	}, 4, 32),
	sqDistConstF32: sqDistConstWith(sqDistConstF32AVX2, 4, 32),
	sqDistConstF64: sqDistConstWith(sqDistConstF64AVX2, 4, 32),
}

// The assembly kernels of arith_avx512_amd64.s and arith_avx2_amd64.s: whole vectors only, in the order of
// the arithOps.

func addF32AVX512(dst, x, y, z *float32, n int, a, b float32)
func subF32AVX512(dst, x, y, z *float32, n int, a, b float32)
func mulF32AVX512(dst, x, y, z *float32, n int, a, b float32)
func divF32AVX512(dst, x, y, z *float32, n int, a, b float32)
func addConstF32AVX512(dst, x, y, z *float32, n int, a, b float32)
func mulConstF32AVX512(dst, x, y, z *float32, n int, a, b float32)
func divConstF32AVX512(dst, x, y, z *float32, n int, a, b float32)
func mulAddConstF32AVX512(dst, x, y, z *float32, n int, a, b float32)
func addMulConstF32AVX512(dst, x, y, z *float32, n int, a, b float32)
func mulAddF32AVX512(dst, x, y, z *float32, n int, a, b float32)
func addF64AVX512(dst, x, y, z *float64, n int, a, b float64)
func subF64AVX512(dst, x, y, z *float64, n int, a, b float64)
func mulF64AVX512(dst, x, y, z *float64, n int, a, b float64)
func divF64AVX512(dst, x, y, z *float64, n int, a, b float64)
func addConstF64AVX512(dst, x, y, z *float64, n int, a, b float64)
func mulConstF64AVX512(dst, x, y, z *float64, n int, a, b float64)
func divConstF64AVX512(dst, x, y, z *float64, n int, a, b float64)
func mulAddConstF64AVX512(dst, x, y, z *float64, n int, a, b float64)
func addMulConstF64AVX512(dst, x, y, z *float64, n int, a, b float64)
func mulAddF64AVX512(dst, x, y, z *float64, n int, a, b float64)
func sqDistConstF32AVX512(p *float32, n int, c float64) (hi, lo float64)
func sqDistConstF64AVX512(p *float64, n int, c float64) (hi, lo float64)

func addF32AVX2(dst, x, y, z *float32, n int, a, b float32)
func subF32AVX2(dst, x, y, z *float32, n int, a, b float32)
func mulF32AVX2(dst, x, y, z *float32, n int, a, b float32)
func divF32AVX2(dst, x, y, z *float32, n int, a, b float32)
func addConstF32AVX2(dst, x, y, z *float32, n int, a, b float32)
func mulConstF32AVX2(dst, x, y, z *float32, n int, a, b float32)
func divConstF32AVX2(dst, x, y, z *float32, n int, a, b float32)
func mulAddConstF32AVX2(dst, x, y, z *float32, n int, a, b float32)
func addMulConstF32AVX2(dst, x, y, z *float32, n int, a, b float32)
func mulAddF32AVX2(dst, x, y, z *float32, n int, a, b float32)
func addF64AVX2(dst, x, y, z *float64, n int, a, b float64)
func subF64AVX2(dst, x, y, z *float64, n int, a, b float64)
func mulF64AVX2(dst, x, y, z *float64, n int, a, b float64)
func divF64AVX2(dst, x, y, z *float64, n int, a, b float64)
func addConstF64AVX2(dst, x, y, z *float64, n int, a, b float64)
func mulConstF64AVX2(dst, x, y, z *float64, n int, a, b float64)
func divConstF64AVX2(dst, x, y, z *float64, n int, a, b float64)
func mulAddConstF64AVX2(dst, x, y, z *float64, n int, a, b float64)
func addMulConstF64AVX2(dst, x, y, z *float64, n int, a, b float64)
func mulAddF64AVX2(dst, x, y, z *float64, n int, a, b float64)
func sqDistConstF32AVX2(p *float32, n int, c float64) (hi, lo float64)
func sqDistConstF64AVX2(p *float64, n int, c float64) (hi, lo float64)
