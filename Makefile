# Every target sets up what it needs (Debian packages, the TensorFlow venv, test models).
.PHONY: demo test build bench clean

demo:
	@scripts/demo.sh

test:
	@scripts/test.sh

build:
	@scripts/build.sh

# Every contender on every benchmark model, then docs/BENCHMARKS.md and docs/benchmarks.png.
bench:
	@BENCH_COMMAND="make bench" scripts/bench.sh

clean:
	rm -rf build java/target
