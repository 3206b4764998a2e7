// SPDX-License-Identifier: GPL-2.0-only
/*
 * A C++ workload for the symbol tests: time in a method, a function
 * template, a function with parameters and a library call through the PLT,
 * so that demangled names and name@plt entries show up in samples.
 * Usage: machine-cxx [seconds]
 */
#include <cstdlib>
#include <ctime>

namespace ns {
struct Acc {
	long v;
	__attribute__((noinline)) long bar(int n) const
	{
		long r = 0;

		for (int i = 0; i < n; i++)
			r += i ^ v;
		return r;
	}
};
} // namespace ns

template <class T> __attribute__((noinline)) T foo(T x)
{
	T r = 0;

	for (T i = 0; i < x; i++)
		r += i * 3;
	return r;
}

__attribute__((noinline)) long plain(long n, const char *tag)
{
	long s = tag[0];

	for (long i = 0; i < n; i++)
		s += rand();
	return s;
}

static double now()
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

volatile long sink;

int main(int argc, char **argv)
{
	double end = now() + (argc > 1 ? atof(argv[1]) : 0.5);
	ns::Acc acc{ 3 };

	while (now() < end) {
		sink += acc.bar(200000);
		sink += foo<long>(200000);
		sink += plain(20000, "x");
	}
	return 0;
}
