#!/usr/bin/env python3
"""scripts/describe-batch as a user meets it: a nested numpy batch in a module of their own, an
.npz, the spec it prints read back by `h2dbench list --sample` with the bytes the arrays hold,
the --json form through --sample @FILE, what it cannot describe named on stderr, and one line
and exit 2 for bad usage.

Usage: tests/describe_batch_test.py --root SOURCE_DIR --h2dbench PATH/TO/h2dbench

Needs numpy. Debian's python3-numpy belongs to /usr/bin/python3, while `python3` on PATH (the
one CMake found) may be another interpreter (pyenv) without it: the test then runs itself with
/usr/bin/python3. Without numpy it is skipped (exit 77), except in CI, where
scripts/install-deps installs python3-numpy and its absence is a failure.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

SKIPPED = 77


def numpy_or_exit():
    try:
        import numpy
        print(f"describe_batch_test: using {sys.executable} (numpy {numpy.__version__})")
        return
    except ImportError:
        pass
    system = "/usr/bin/python3"
    if os.path.realpath(sys.executable) != os.path.realpath(system) and os.access(system, os.X_OK):
        probe = subprocess.run([system, "-c", "import numpy"], capture_output=True)
        if probe.returncode == 0:
            os.execv(system, [system] + sys.argv)
    if os.environ.get("CI"):
        print("describe_batch_test: no python3 with numpy, which CI must have "
              "(apt-get install python3-numpy)", file=sys.stderr)
        sys.exit(1)
    print("describe_batch_test: skipped: no python3 with numpy (apt-get install python3-numpy)")
    sys.exit(SKIPPED)


# The user's module: a batch as a detection loader's collate hands it over (batched image, label
# and meta.size; boxes one array per sample, a different number of boxes each), one sample, and
# the same batch with a string in it. The test imports it too, so the bytes it expects are those
# of the very arrays the script saw.
LOADER = '''
import numpy as np

BOXES_PER_SAMPLE = (3, 1, 6, 2)


def batch():
    rng = np.random.default_rng(7)
    return {
        "image": rng.integers(0, 256, size=(4, 3, 32, 32), dtype=np.uint8),
        "label": np.arange(4, dtype=np.int64),
        "boxes": [rng.random((k, 4), dtype=np.float32) for k in BOXES_PER_SAMPLE],
        "meta": {"size": np.full((4, 2), 32, dtype=np.int64)},
    }


def batch_with_name():
    named = batch()
    named["meta"]["name"] = "a cat"
    return named


def sample():
    return {"image": np.zeros((3, 8, 8), dtype=np.float32), "label": 3}


class TorchLike:
    """What the script reads of a torch tensor: .shape, and a dtype printed torch.bfloat16."""
    class dtype:
        def __str__(self):
            return "torch.bfloat16"

    shape = (4, 16)
    dtype = dtype()


def torch_like():
    return {"hidden": TorchLike(), 7: [True, False, True, False]}


def not_a_batch():
    return "a string"
'''

EXPECTED_SPEC = "image:3x32x32:uint8,label::int64,boxes:1..6x4:float32,meta.size:2:int64"
SAMPLE_LINE = re.compile(r"^# sample custom \((\d+) members?, ([0-9.]+) bytes per sample\): (.*)$",
                         re.M)


class DescribeBatchTest(unittest.TestCase):
    root = None
    h2dbench = None

    @classmethod
    def setUpClass(cls):
        cls.script = os.path.join(cls.root, "scripts", "describe-batch")
        cls.folder = tempfile.TemporaryDirectory(prefix="describe_batch_test.")
        cls.dir = cls.folder.name
        with open(os.path.join(cls.dir, "user_loader.py"), "w", encoding="utf-8") as module:
            module.write(LOADER)
        sys.path.insert(0, cls.dir)
        import user_loader
        cls.batch = user_loader.batch()

    @classmethod
    def tearDownClass(cls):
        cls.folder.cleanup()

    def describe(self, *arguments):
        # The interpreter that has numpy, not the script's `env python3`, which may lack it.
        return subprocess.run([sys.executable, self.script] + list(arguments),
                              capture_output=True, text=True, timeout=60)

    def describe_module(self, callable_name, *arguments):
        return self.describe("--module", f"user_loader:{callable_name}", "--path", self.dir,
                             *arguments)

    def listed_sample(self, spec):
        """`h2dbench list --sample SPEC`'s sample line: (members, bytes, text)."""
        result = subprocess.run([self.h2dbench, "list", "--sample", spec, "--preset", "quick",
                                 "--filter", "^host/memcpy"],
                                capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 0, result.stderr)
        match = SAMPLE_LINE.search(result.stdout)
        self.assertIsNotNone(match, result.stdout)
        return int(match.group(1)), match.group(2), match.group(3)

    def expected_bytes(self):
        """LOW..HIGH from the arrays themselves: the batched members per sample, and boxes at
        its smallest and largest per-sample array."""
        fixed = (self.batch["image"][0].nbytes + self.batch["label"][0].nbytes +
                 self.batch["meta"]["size"][0].nbytes)
        boxes = [array.nbytes for array in self.batch["boxes"]]
        return f"{fixed + min(boxes)}..{fixed + max(boxes)}"

    def assert_usage_error(self, result):
        self.assertEqual(result.returncode, 2, result.stdout + result.stderr)
        self.assertEqual(result.stdout, "")
        lines = result.stderr.splitlines()
        self.assertEqual(len(lines), 1, result.stderr)
        self.assertTrue(lines[0].startswith("describe-batch: "), lines[0])

    def test_script_is_an_executable_python3_script(self):
        self.assertTrue(os.access(self.script, os.X_OK))
        with open(self.script, encoding="utf-8") as script:
            self.assertEqual(script.readline().rstrip("\n"), "#!/usr/bin/env python3")

    def test_nested_batch_from_a_module(self):
        result = self.describe_module("batch")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stderr, "")
        self.assertEqual(result.stdout, EXPECTED_SPEC + "\n")

    def test_spec_round_trips_through_h2dbench(self):
        spec = self.describe_module("batch").stdout.strip()
        members, bytes_, text = self.listed_sample(spec)
        self.assertEqual(members, 4)
        self.assertEqual(bytes_, self.expected_bytes())
        self.assertEqual(text, spec)

    def test_json_round_trips_through_sample_file(self):
        result = self.describe_module("batch", "--json")
        self.assertEqual(result.returncode, 0, result.stderr)
        document = json.loads(result.stdout)
        self.assertEqual([m["name"] for m in document["members"]],
                         ["image", "label", "boxes", "meta.size"])
        self.assertEqual(document["members"][2], {"name": "boxes", "shape": ["1..6", 4],
                                                  "dtype": "float32"})
        path = os.path.join(self.dir, "sample.json")
        with open(path, "w", encoding="utf-8") as file:
            file.write(result.stdout)
        members, bytes_, text = self.listed_sample("@" + path)
        self.assertEqual((members, bytes_, text), (4, self.expected_bytes(), EXPECTED_SPEC))

    def test_npz_file(self):
        import numpy
        path = os.path.join(self.dir, "batch.npz")
        numpy.savez(path, image=self.batch["image"], label=self.batch["label"],
                    size=self.batch["meta"]["size"])
        result = self.describe("--file", path)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout, "image:3x32x32:uint8,label::int64,size:2:int64\n")
        members, bytes_, _ = self.listed_sample(result.stdout.strip())
        self.assertEqual(members, 3)
        self.assertEqual(bytes_, str(3 * 32 * 32 + 8 + 2 * 8))

    def test_what_it_cannot_describe_is_named_and_the_rest_described(self):
        result = self.describe_module("batch_with_name")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout, EXPECTED_SPEC + "\n")
        lines = result.stderr.splitlines()
        self.assertEqual(len(lines), 1, result.stderr)
        self.assertIn("meta.name", lines[0])
        self.assertIn("a str", lines[0])

    def test_one_sample_keeps_its_shapes(self):
        result = self.describe_module("sample", "--is-sample")
        self.assertEqual(result.stdout, "image:3x8x8:float32,label::int64\n", result.stderr)

    def test_torch_dtypes_and_names_that_need_fixing(self):
        # A torch dtype prints as torch.bfloat16; the key 7 is no name, and a per-sample list of
        # bools is one bool a sample.
        result = self.describe_module("torch_like")
        self.assertEqual(result.stdout, "hidden:16:bfloat16,m_7::bool\n", result.stderr)
        self.listed_sample(result.stdout.strip())

    def test_bad_usage_is_one_line_and_exit_2(self):
        missing_file = os.path.join(self.dir, "missing.npz")
        not_npz = os.path.join(self.dir, "not.npz")
        with open(not_npz, "w", encoding="utf-8") as file:
            file.write("not a zip")
        for arguments in ([],
                          ["--module", "user_loader"],
                          ["--module", "no_such_module_here:batch"],
                          ["--module", "user_loader:no_such_callable", "--path", self.dir],
                          ["--module", "user_loader:not_a_batch", "--path", self.dir],
                          ["--file", missing_file],
                          ["--file", not_npz],
                          ["--file", os.path.join(self.dir, "user_loader.py")],
                          ["--module", "user_loader:batch", "--file", not_npz],
                          ["--no-such-option"]):
            with self.subTest(arguments=arguments):
                self.assert_usage_error(self.describe(*arguments))

    def test_help_names_every_option(self):
        result = self.describe("--help")
        self.assertEqual(result.returncode, 0)
        for option in ("--module", "--file", "--path", "--is-sample", "--json"):
            self.assertIn(option, result.stdout)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--h2dbench", required=True)
    args, rest = parser.parse_known_args()
    numpy_or_exit()
    DescribeBatchTest.root = os.path.abspath(args.root)
    DescribeBatchTest.h2dbench = os.path.abspath(args.h2dbench)
    program = unittest.main(argv=[sys.argv[0], "-v"] + rest, exit=False)
    return 0 if program.result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
