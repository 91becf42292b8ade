// The nanobind side of bench/kernels.py: godlpack.ops's kernels written as a C++ author would write them,
// one plain loop each, for g++ -O3 -march=native to vectorize where it may (not float sums: without
// -ffast-math it keeps their order).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace nb = nanobind;
template <typename T> using In = nb::ndarray<const T, nb::c_contig, nb::device::cpu>;
template <typename T> using Out = nb::ndarray<T, nb::c_contig, nb::device::cpu>;

// Floats summed in double, integers in int64_t, as godlpack.ops.sum sums them.
template <typename T, typename A> A sum(In<T> x) {
    const T *p = x.data();
    A s = 0;
    for (size_t i = 0; i < x.size(); i++) s += p[i];
    return s;
}

template <typename T, typename A> A dot(In<T> x, In<T> y) {
    if (x.size() != y.size()) throw std::invalid_argument("sizes differ");
    const T *p = x.data(), *q = y.data();
    A s = 0;
    for (size_t i = 0; i < x.size(); i++) s += A(p[i]) * A(q[i]);
    return s;
}

template <typename T, typename F> void scale(Out<T> x, F a) {
    T *p = x.data();
    T m = T(a);
    for (size_t i = 0; i < x.size(); i++) p[i] *= m;
}

template <typename T> void copy(Out<T> dst, In<T> src) {
    if (dst.size() != src.size()) throw std::invalid_argument("sizes differ");
    std::memcpy(dst.data(), src.data(), src.size() * sizeof(T));
}

NB_MODULE(nb_kernels, m) {
    m.def("sum_f32", &sum<float, double>);
    m.def("sum_f64", &sum<double, double>);
    m.def("sum_i32", &sum<int32_t, int64_t>);
    m.def("dot_f32", &dot<float, double>);
    m.def("dot_f64", &dot<double, double>);
    m.def("dot_i32", &dot<int32_t, int64_t>);
    m.def("scale_f32", &scale<float, double>);
    m.def("scale_f64", &scale<double, double>);
    m.def("scale_i32", &scale<int32_t, int64_t>);
    m.def("copy_f32", &copy<float>);
    m.def("copy_f64", &copy<double>);
    m.def("copy_i32", &copy<int32_t>);
}
