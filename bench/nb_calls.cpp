// The nanobind side of bench/calls.py: the functions of bench/gocalls, written with nanobind.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/pair.h>

#include <cstdint>
#include <string>
#include <utility>

namespace nb = nanobind;
using T = nb::ndarray<float, nb::c_contig, nb::device::cpu>;
using Release = nb::call_guard<nb::gil_scoped_release>;

float sum(T x) {
    float total = 0;
    for (size_t i = 0; i < x.size(); i++) total += x.data()[i];
    return total;
}

void scale(T x, double a) {
    for (size_t i = 0; i < x.size(); i++) x.data()[i] *= float(a);
}

// ones returns n ones in new memory that a capsule owns, as framework F's array (nanobind's own without one).
template <typename... F> nb::ndarray<F..., float, nb::ndim<1>> ones(size_t n) {
    float *data = new float[n];
    for (size_t i = 0; i < n; i++) data[i] = 1;
    nb::capsule owner(data, [](void *p) noexcept { delete[] (float *)p; });
    return nb::ndarray<F..., float, nb::ndim<1>>(data, {n}, owner);
}

std::pair<nb::ndarray<nb::numpy, float, nb::ndim<1>>, double> halves(T x) {
    auto out = ones<nb::numpy>(x.size());
    double total = 0;
    for (size_t i = 0; i < x.size(); i++) {
        out.data()[i] = x.data()[i] / 2;
        total += x.data()[i];
    }
    return {out, total};
}

// def binds f as name, and as name_nogil releasing the GIL.
template <typename F, typename... Extra> void def(nb::module_ &m, const char *name, F f, const Extra &...extra) {
    m.def(name, f, extra...);
    m.def((std::string(name) + "_nogil").c_str(), f, extra..., Release());
}

NB_MODULE(nb_calls, m) {
    m.def("nop1", [](T, double) {}, nb::arg("a"), nb::arg("x"));
    m.def("nop3", [](T, T, T, double) {}, nb::arg("a"), nb::arg("b"), nb::arg("c"), nb::arg("x"));
    m.def("nop8", [](T, T, T, T, T, T, T, T, double) {}, nb::arg("a"), nb::arg("b"), nb::arg("c"), nb::arg("d"),
          nb::arg("e"), nb::arg("f"), nb::arg("g"), nb::arg("h"), nb::arg("x"));
    def(m, "sum", &sum);
    def(m, "scale_", &scale);
    def(m, "new_tensor", &ones<>);
    def(m, "new_numpy", &ones<nb::numpy>);
    def(m, "new_torch", &ones<nb::pytorch>);
    def(m, "halves", &halves);
}
