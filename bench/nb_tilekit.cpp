// examples/tilekit written with nanobind, for bench/calls.py and for the README's count of lines: the same classes
// (Stats: a constructor, a method over tensors that releases the GIL, merge, mean and variance as NumPy arrays,
// len, + and +=, properties, pickling; RowStore, bound as Rows: rows appended to memory the instance owns, and a view
// of them that keeps the instance alive), the same callback (map_), enum (Norm), exception (TilekitError) and functions.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/function.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace nb = nanobind;
using namespace nb::literals;

using Rows = nb::ndarray<const float, nb::ndim<2>, nb::device::cpu>;
using CRows = nb::ndarray<const float, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
template <typename T> using NumPy = nb::ndarray<nb::numpy, T>;

struct TilekitError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

enum class Norm { L1, L2, Max };

// numpy returns a new C-contiguous NumPy array of shape, zeroed, owned by a capsule.
template <typename T> NumPy<T> numpy(std::initializer_list<size_t> shape) {
    size_t n = 1;
    for (size_t d : shape) n *= d;
    T *data = new T[n]();
    nb::capsule owner(data, [](void *p) noexcept { delete[] (T *)p; });
    return NumPy<T>(data, shape.size(), shape.begin(), owner);
}

NumPy<double> numpy_of(const std::vector<double> &v) {
    auto a = numpy<double>({v.size()});
    std::copy(v.begin(), v.end(), a.data());
    return a;
}

struct Stats {
    int64_t count = 0;
    std::vector<double> mean, m2;

    explicit Stats(int width) {
        if (width <= 0) throw TilekitError("width must be positive, not " + std::to_string(width));
        mean.assign(width, 0);
        m2.assign(width, 0);
    }
    Stats(int64_t count, std::vector<double> mean, std::vector<double> m2) : count(count), mean(mean), m2(m2) {}

    void update(Rows x) {
        if (x.shape(1) != mean.size())
            throw TilekitError("rows of " + std::to_string(mean.size()) + " columns, not " + std::to_string(x.shape(1)));
        auto v = x.view();
        for (size_t i = 0; i < v.shape(0); i++) {
            count++;
            for (size_t j = 0; j < v.shape(1); j++) {
                double d = v(i, j) - mean[j];
                mean[j] += d / count;
                m2[j] += d * (v(i, j) - mean[j]);
            }
        }
    }

    void merge(const Stats &o) {
        if (o.mean.size() != mean.size()) throw TilekitError("a Stats of a different width");
        int64_t n = count + o.count;
        for (size_t j = 0; j < mean.size() && n > 0; j++) {
            double d = o.mean[j] - mean[j];
            m2[j] += o.m2[j] + d * d * count * o.count / n;
            mean[j] += d * o.count / n;
        }
        count = n;
    }

    std::vector<double> variance() const {
        std::vector<double> v(m2.size());
        for (size_t j = 0; j < v.size(); j++) v[j] = m2[j] / std::max<int64_t>(count, 1);
        return v;
    }
};

// RowStore keeps rows in a std::vector. Unlike tilekit's Buffer, nothing stops an add from moving the memory
// a view of data still points to: the view then reads freed memory.
struct RowStore {
    size_t width;
    std::vector<float> data;

    explicit RowStore(int width) : width(width) {
        if (width <= 0 || width > 1 << 24) throw TilekitError("width must be in [1, 2**24], not " + std::to_string(width));
    }

    void add(CRows x) {
        if (x.shape(1) != width)
            throw TilekitError("x must have " + std::to_string(width) + " columns, not " + std::to_string(x.shape(1)));
        data.insert(data.end(), x.data(), x.data() + x.size());
    }
};

NB_MODULE(nb_tilekit, m) {
    m.doc() = "Running statistics, histograms and distances, in C++.";
    nb::exception<TilekitError>(m, "TilekitError", PyExc_ValueError);
    nb::enum_<Norm>(m, "Norm").value("L1", Norm::L1).value("L2", Norm::L2).value("MAX", Norm::Max);

    nb::class_<Stats>(m, "Stats", "Running mean and variance of each column of float32 rows.")
        .def(nb::init<int>(), "width"_a)
        .def("update", &Stats::update, "x"_a, nb::call_guard<nb::gil_scoped_release>(), "Add the rows of x.")
        .def("merge", &Stats::merge, "other"_a, "Add the rows other has seen.")
        .def("mean", [](const Stats &s) { return numpy_of(s.mean); }, "The mean of each column.")
        .def("variance", [](const Stats &s) { return numpy_of(s.variance()); }, "The variance of each column.")
        .def("__len__", [](const Stats &s) { return s.count; }, "The rows seen.")
        .def("__add__", [](const Stats &s, const Stats &o) {
            Stats sum = s;
            sum.merge(o);
            return sum;
        }, "other"_a, nb::is_operator(), "The statistics of the rows both have seen.")
        .def("__iadd__", [](Stats &s, const Stats &o) -> Stats & {
            s.merge(o);
            return s;
        }, "other"_a, nb::is_operator(), nb::rv_policy::none, "Add the rows other has seen, in place.")
        .def_ro("count", &Stats::count, "The rows seen.")
        .def_prop_ro("width", [](const Stats &s) { return s.mean.size(); }, "The columns.")
        .def("__repr__", [](const Stats &s) {
            return "Stats(width=" + std::to_string(s.mean.size()) + ", count=" + std::to_string(s.count) + ")";
        })
        .def("__getstate__", [](const Stats &s) { return std::make_tuple(s.count, s.mean, s.m2); })
        .def("__setstate__", [](Stats &s, std::tuple<int64_t, std::vector<double>, std::vector<double>> st) {
            new (&s) Stats(std::get<0>(st), std::get<1>(st), std::get<2>(st));
        });

    nb::class_<RowStore>(m, "Rows", "Float32 rows of one width, kept in C memory as they are added.")
        .def(nb::init<int>(), "width"_a)
        .def("add", &RowStore::add, "x"_a, "Append the rows of x.")
        .def_prop_ro("data", [](RowStore &r) {
            return nb::ndarray<nb::numpy, float, nb::ndim<2>>(r.data.data(), {r.data.size() / r.width, r.width}, nb::handle());
        }, nb::rv_policy::reference_internal, "The rows: a tensor over their memory.")
        .def("clear", [](RowStore &r) { r.data.clear(); }, "Remove every row, keeping the memory.");

    m.def("histogram", [](nb::ndarray<const uint8_t, nb::device::cpu> x) {
        auto out = numpy<int64_t>({256});
        const uint8_t *p = x.data();
        size_t n = x.size();
        bool dense = true;
        for (size_t d = x.ndim(), step = 1; d-- > 0; step *= x.shape(d)) dense &= (size_t)x.stride(d) == step;
        if (!dense) throw nb::value_error("histogram needs a C-contiguous tensor");
        for (size_t i = 0; i < n; i++) out.data()[p[i]]++;
        return out;
    }, "x"_a, "How many of each byte value x holds.");

    m.def("sqdist", [](CRows a, CRows b) {
        if (a.shape(1) != b.shape(1)) throw TilekitError("rows of different lengths");
        size_t n = a.shape(0), k = a.shape(1), mm = b.shape(0);
        auto out = numpy<float>({n, mm});
        for (size_t i = 0; i < n * mm; i++) {
            float sum = 0;
            for (size_t c = 0; c < k; c++) {
                float d = a.data()[i / mm * k + c] - b.data()[i % mm * k + c];
                sum += d * d;
            }
            out.data()[i] = sum;
        }
        return out;
    }, "a"_a, "b"_a, nb::call_guard<nb::gil_scoped_release>(), "The squared distance of each row of a to each row of b.");

    m.def("norms", [](Rows x, Norm norm) {
        auto out = numpy<float>({x.shape(0)});
        auto v = x.view();
        for (size_t i = 0; i < v.shape(0); i++) {
            double acc = 0;
            for (size_t j = 0; j < v.shape(1); j++) {
                double a = std::fabs(v(i, j));
                acc = norm == Norm::L1 ? acc + a : norm == Norm::L2 ? acc + a * a : std::max(acc, a);
            }
            out.data()[i] = float(norm == Norm::L2 ? std::sqrt(acc) : acc);
        }
        return out;
    }, "x"_a, "norm"_a = Norm::L2, "The norm of each row of x.");

    m.def("map_", [](nb::ndarray<float, nb::device::cpu> x, std::function<float(float)> f) {
        std::vector<size_t> idx(x.ndim(), 0);
        for (size_t n = 0; n < x.size(); n++) {
            int64_t off = 0;
            for (size_t d = 0; d < x.ndim(); d++) off += idx[d] * x.stride(d);
            x.data()[off] = f(x.data()[off]);
            for (size_t d = x.ndim(); d-- > 0 && ++idx[d] == x.shape(d);) idx[d] = 0;
        }
    }, "x"_a, "f"_a, "Replace each element v of x by f(v).");
}
