#!/usr/bin/env python3
"""Every module a target imports is declared in Package.swift.

SwiftPM lets a target import a module it only reaches through another dependency (Platform
importing CPixman because Graphics depends on it), so the layer picture in Package.swift can
drift from the code without any build failing; `--explicit-target-dependency-import-check`
would catch it but reports nothing with this toolchain. This reads the manifest through
`swift package dump-package` and each target's `import` lines, and names every import of a
package target or dependency product that the importing target does not declare.
Imports of the toolchain's own modules (Glibc, Foundation, Testing, ...) are not checked.

    scripts/check-imports.py [PACKAGE_DIR]   exit 1 and one line per undeclared import
    scripts/check-imports.py --self-test     proves a missing declaration is caught
"""
import json
import os
import re
import subprocess
import sys
import tempfile

IMPORT = re.compile(r"^\s*(?:@\w+\s+)*import\s+(?:(?:struct|class|enum|func|var|let|protocol|typealias)\s+)?([A-Za-z_]\w*)", re.M)


def manifest(package):
    out = subprocess.run(["swift", "package", "--package-path", package, "dump-package"],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def declared(target):
    names = set()
    for dependency in target["dependencies"]:
        for kind in ("byName", "target", "product"):
            if kind in dependency:
                names.add(dependency[kind][0])
    return names


def source_folder(package, target):
    if target.get("path"):
        return os.path.join(package, target["path"])
    base = "Tests" if target["type"] == "test" else "Sources"
    return os.path.join(package, base, target["name"])


def imports(folder):
    found = {}
    for root, _, files in os.walk(folder):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(root, name)
            with open(path, encoding="utf-8", errors="replace") as file:
                for module in IMPORT.findall(file.read()):
                    found.setdefault(module, path)
    return found


def undeclared(package):
    data = manifest(package)
    targets = [t for t in data["targets"] if t["type"] in ("regular", "executable", "test")]
    # Modules the package could declare: its own targets and its dependencies' products
    # (swift-log's product Logging is the module Logging, and so on).
    known = {t["name"] for t in data["targets"]}
    for target in data["targets"]:
        known |= {d["product"][0] for d in target["dependencies"] if "product" in d}
    problems = []
    for target in targets:
        allowed = declared(target) | {target["name"]}
        for module, path in sorted(imports(source_folder(package, target)).items()):
            if module in known and module not in allowed:
                problems.append(f"{os.path.relpath(path, package)}: target {target['name']} imports "
                                f"{module} without declaring it in Package.swift")
    return problems, len(targets)


def self_test():
    with tempfile.TemporaryDirectory() as package:
        with open(os.path.join(package, "Package.swift"), "w") as file:
            file.write('// swift-tools-version:5.9\nimport PackageDescription\n'
                       'let package = Package(name: "P", targets: [\n'
                       '  .target(name: "Base"), .target(name: "Middle", dependencies: ["Base"]),\n'
                       '  .target(name: "Top", dependencies: ["Middle"])])\n')
        for name, text in [("Base", "public let base = 1\n"),
                           ("Middle", "import Base\npublic let middle = base\n"),
                           ("Top", "import Glibc\n@testable import Middle\nimport Base\n")]:
            os.makedirs(os.path.join(package, "Sources", name))
            with open(os.path.join(package, "Sources", name, name + ".swift"), "w") as file:
                file.write(text)
        problems, _ = undeclared(package)
        expected = ["Sources/Top/Top.swift: target Top imports Base without declaring it in Package.swift"]
        if problems != expected:
            print(f"check-imports self-test FAILED: expected {expected}, got {problems}")
            return 1
    print("check-imports self-test: an undeclared import is caught, toolchain modules are not")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    package = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    problems, count = undeclared(package)
    for line in problems:
        print(line)
    print(f"check-imports: {count} targets, {len(problems)} undeclared imports")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
