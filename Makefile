# Every target sets up what it needs (Debian packages, the TensorFlow venv, test models).
.PHONY: demo test build natives bench clean

demo:
	@scripts/demo.sh

test:
	@scripts/test.sh

build:
	@scripts/build.sh

# build, and every other platform's JNI library (cross-built) in the tfjni jar, and every
# platform's and variant's TensorFlow runtime artifact (docs/PLATFORMS.md).
natives:
	@scripts/build.sh --all-platforms

# Every contender on every benchmark model, then docs/BENCHMARKS.md and docs/benchmarks.png.
bench:
	@BENCH_COMMAND="make bench" scripts/bench.sh

clean:
	rm -rf build java/target
