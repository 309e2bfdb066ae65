# Every target sets up what it needs (Debian packages, the TensorFlow venv, test models).
.PHONY: demo test build clean

demo:
	@scripts/demo.sh

test:
	@scripts/test.sh

build:
	@scripts/build.sh

clean:
	rm -rf build java/target
