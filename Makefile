# Every target sets up what it needs (Debian packages, the TensorFlow venv, test models).
.PHONY: demo test build natives bench release release-runtime clean

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

# A staging Maven repository of tfjni VERSION in build/release/VERSION/staging (scripts/release.sh;
# GPG_KEY=KEY signs it).
release:
	@scripts/release.sh $(if $(GPG_KEY),--gpg-key $(GPG_KEY)) $(VERSION)

# The runtime artifacts (io.tfjni:tfjni-tensorflow-cpu and -gpu at TensorFlow's version,
# io.tfjni:tfjni-litert at LiteRT's), one staging directory each in build/release
# (scripts/release-runtime.sh).
release-runtime:
	@scripts/release-runtime.sh $(if $(GPG_KEY),--gpg-key $(GPG_KEY))

clean:
	rm -rf build java/target
