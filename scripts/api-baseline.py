#!/usr/bin/env python3
"""Turns swift-api-digester -dump-sdk dumps into the text baselines of api/ (scripts/api-check runs it).

    scripts/api-baseline.py [--demangle PATH] --out-dir DIR DUMP.json...

Each DUMP.json (named after its module, e.g. OrgSocial.json) becomes DIR/OrgSocial.txt: one line per public
declaration, in a Swift-like notation, sorted by parent path and then by name, so that a change to the API is
a small, readable diff. What a line holds, and what is left out:

  - the kind (struct, enum, class, actor, protocol, typealias, case, var, let, func, init, subscript), the
    declaration's path (Feed.Kind.post), generic parameters and where clauses, argument labels with their
    types, `= default` where a parameter has a default value, async/throws/rethrows, the result type, a
    property's `{ get }` or `{ get set }`, conformances and the attributes that matter to a caller
    (@discardableResult, nonisolated, mutating, static, @escaping, @Sendable, ...);
  - `extension` in front of a protocol member that a protocol extension provides (not a requirement);
  - left out: `package` and `@usableFromInline` declarations (the digester marks them isInternal), names
    starting with `_`, @_spi declarations, imports, and the members the compiler synthesizes for a
    conformance (==, hash(into:), init(from:), rawValue, ...), which the conformance on the type's line
    already says.

The digester's JSON drops a function's `async`, typed throws and the attributes inside closure types
(@Sendable, global actors), so those come from the declaration's mangled name, demangled with
swift-demangle (--demangle; by default the swift-demangle next to swift on PATH).

Module qualifiers are dropped for the module itself and for the standard library and Foundation
(FoundationEssentials.URL is written URL); other modules' types keep theirs (OrgSocial.Post).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys

# Protocols every type conforms to unless it opts out; the line says `~Copyable` when one is missing.
MARKER_PROTOCOLS = ("Copyable", "Escapable")
# Conformances that say nothing a reader needs (implied by Sendable, or by the `actor` kind).
QUIET_CONFORMANCES = {"SendableMetatype"}

# Module qualifiers that are dropped from type names (and the baseline's own module).
PLAIN_MODULES = [
    "Swift",
    "_Concurrency",
    "_StringProcessing",
    "Foundation",
    "FoundationEssentials",
    "FoundationInternationalization",
    "Dispatch",
    "Glibc",
    "Musl",
    "Synchronization",
]

# declAttributes: how each one is written on the line (None: left out, it is not part of the API).
ATTRIBUTES = {
    "HasStorage": None,
    "HasInitialValue": None,
    "Implements": None,
    "Semantics": None,
    "Transparent": None,
    "SetterAccess": None,  # shows as `{ get }`
    "RawDocComment": None,
    "Optimize": None,
    "Effects": None,
    "Inline": None,
    "Rethrows": None,  # shows as `rethrows`
    "Final": "final",
    "Nonisolated": "nonisolated",
    "DiscardableResult": "@discardableResult",
    "Inlinable": "@inlinable",
    "AlwaysEmitIntoClient": "@_alwaysEmitIntoClient",
    "Frozen": "@frozen",
    "Available": "@available",
    "Override": "override",
    "Required": "required",
    "Indirect": "indirect",
    "Dynamic": "dynamic",
    "Lazy": "lazy",
    "Preconcurrency": "@preconcurrency",
}

SELF_KINDS = {"Mutating": "mutating", "Consuming": "consuming", "Borrowing": "borrowing", "__Consuming": "__consuming"}
OWNERSHIP = {"InOut": "inout", "Shared": "borrowing", "Owned": "consuming"}
FUNCTION_KINDS = {"Func", "Constructor", "Subscript"}


def fail(message):
    print(f"api-baseline: {message}", file=sys.stderr)
    sys.exit(1)


# --- Scanning type strings -------------------------------------------------------------------------------

OPENERS = {"(": ")", "[": "]", "<": ">"}
CLOSERS = {")", "]", ">"}


def matching(text, start):
    """The index of the bracket that closes the one at `start` (`->` is not a closing `>`)."""
    depth = 0
    i = start
    while i < len(text):
        c = text[i]
        if c == "-" and text.startswith("->", i):
            i += 2
            continue
        if c in OPENERS:
            depth += 1
        elif c in CLOSERS:
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def split_top(text, separator=","):
    """Splits `text` at the separators that are outside every bracket (see ``top_level_index``)."""
    parts, start = [], 0
    while True:
        found = top_level_index(text, separator, start)
        part = text[start:] if found < 0 else text[start:found]
        if part.strip():
            parts.append(part.strip())
        if found < 0:
            return parts
        start = found + len(separator)


def top_level_index(text, needle, start=0):
    """The first index of `needle` outside every bracket, or -1."""
    depth, i = 0, start
    while i < len(text):
        c = text[i]
        if c == "-" and text.startswith("->", i):
            if depth == 0 and text.startswith(needle, i):
                return i
            i += 2
            continue
        if depth == 0 and text.startswith(needle, i):
            return i
        if c in OPENERS:
            depth += 1
        elif c in CLOSERS:
            depth -= 1
        i += 1
    return -1


EFFECTS_THEN_ARROW = re.compile(r"(\s+async)?(\s+throws(\([^()]*\))?)?\s+->")


def function_type_openings(text):
    """Indices of the `(` that open a function type's parameter list, left to right."""
    openings = []
    for i, c in enumerate(text):
        if c != "(":
            continue
        end = matching(text, i)
        if end >= 0 and EFFECTS_THEN_ARROW.match(text, end + 1):
            openings.append(i)
    return openings


TRAILING_ATTRIBUTES = re.compile(r"((?:@[\w.]+(?:\([^()]*\))? )+)$")


def closure_attributes(text):
    """For each function type in `text`, the attributes written before it ('@Sendable ', '')."""
    found = []
    for i in function_type_openings(text):
        match = TRAILING_ATTRIBUTES.search(text[:i])
        found.append(match.group(1) if match else "")
    return found


def with_closure_attributes(json_type, demangled_type, clean):
    """`json_type` with the closure attributes that only the demangled type spells (@Sendable, @MainActor)."""
    if demangled_type is None or "@" not in demangled_type:
        return json_type
    attributes = [clean(a) for a in closure_attributes(demangled_type)]
    openings = function_type_openings(json_type)
    if len(attributes) != len(openings):
        return json_type
    out, last = [], 0
    for position, attribute in zip(openings, attributes):
        out.append(json_type[last:position])
        if attribute and not json_type[:position].endswith(attribute):
            out.append(attribute)
        last = position
    out.append(json_type[last:])
    return "".join(out)


# --- The demangled declaration ---------------------------------------------------------------------------


class Demangled:
    """What the demangled mangled name says that the JSON does not: effects, and closure attributes."""

    def __init__(self, params=None, result=None, var_type=None, is_async=False, throws=None):
        self.params = params  # parameter types, labels removed
        self.result = result
        self.var_type = var_type
        self.is_async = is_async
        self.throws = throws  # None, "throws" or "throws(E)"


def parse_effects(rest):
    """(async, throws, result) from the text after a parameter list: ` async throws(E) -> R`."""
    is_async, throws = False, None
    rest = rest.lstrip()
    if rest.startswith("async"):
        is_async = True
        rest = rest[len("async"):].lstrip()
    if rest.startswith("throws"):
        throws = "throws"
        rest = rest[len("throws"):]
        if rest.startswith("("):
            end = matching(rest, 0)
            if end < 0:
                return None
            throws = "throws" + rest[: end + 1]
            rest = rest[end + 1:]
        rest = rest.lstrip()
    if not rest.startswith("->"):
        return None
    return is_async, throws, rest[2:].strip()


def parameter_types(inside):
    types = []
    for item in split_top(inside):
        colon = top_level_index(item, ": ")
        types.append(item[colon + 2:] if colon >= 0 else item)
    return types


def parse_demangled(text, decl_kind, base_name):
    text = re.sub(r"\(extension in [^()]*\):", "", text)
    if text.startswith("static "):
        text = text[len("static "):]
    if decl_kind == "Var":
        colon = top_level_index(text, " : ")
        return Demangled(var_type=text[colon + 3:]) if colon >= 0 else None
    start = -1
    if base_name and not re.match(r"^[A-Za-z_]", base_name):  # an operator: `Feed.== infix(...)`
        for fixity in (" infix(", " prefix(", " postfix("):
            at = text.find(fixity)
            if at >= 0:
                start = at + len(fixity) - 1
                break
    else:
        start = top_level_index(text, "(")
    if start < 0:
        return None
    end = matching(text, start)
    if end < 0:
        return None
    effects = parse_effects(text[end + 1:])
    if effects is None:
        return None
    is_async, throws, result = effects
    params = parameter_types(text[start + 1: end])
    if decl_kind == "EnumElement":  # `E.case(E.Type) -> (payload) -> E`
        if not result.startswith("("):
            return Demangled(params=[])
        payload_end = matching(result, 0)
        return Demangled(params=[result[: payload_end + 1]])
    return Demangled(params=params, result=result, is_async=is_async, throws=throws)


def demangle_all(tool, names):
    if not names:
        return {}
    answer = subprocess.run(
        [tool, "--compact"], input="\n".join(names) + "\n", capture_output=True, text=True, check=False
    )
    lines = answer.stdout.splitlines()
    if answer.returncode != 0 or len(lines) != len(names):
        fail(f"{tool} --compact failed (exit status {answer.returncode}): {answer.stderr.strip()}")
    return dict(zip(names, lines))


# --- Generic signatures ----------------------------------------------------------------------------------


def parse_generic_signature(signature):
    """`<T, U where T : P, U == Int>` -> (["T", "U"], ["T : P", "U == Int"]); a requirement signature
    (`<Self : P>`, a protocol's) has requirements only."""
    if not signature:
        return [], []
    inner = signature.strip()[1:-1]
    where = top_level_index(inner, " where ")
    if where >= 0:
        return split_top(inner[:where]), split_top(inner[where + len(" where "):])
    params, requirements = [], []
    for item in split_top(inner):
        (requirements if (" : " in item or " == " in item) else params).append(item)
    return params, requirements


# --- Lines -----------------------------------------------------------------------------------------------


class Baseline:
    def __init__(self, module, root, demangled):
        self.module = module
        self.root = root
        self.demangled = demangled
        modules = sorted(set(PLAIN_MODULES + [module]), key=len, reverse=True)
        self.qualifier = re.compile(r"(?<![\w.])(?:" + "|".join(re.escape(m) for m in modules) + r")\.")
        self.lines = []  # (sort key, text)

    def clean(self, text):
        return self.qualifier.sub("", text)

    # -- filters

    @staticmethod
    def is_public_api(node):
        name = node.get("name", "")
        if node.get("declKind") in (None, "Import"):
            return False
        if node.get("isInternal") or node.get("spi_group_names"):
            return False  # package or @usableFromInline; @_spi
        if name.startswith("_") or node.get("printedName", "").startswith("_"):
            return False
        if node.get("implicit") and node.get("declKind") != "TypeAlias":
            return False  # synthesized for a conformance the type's line shows
        return True

    # -- walking

    def run(self):
        for child in self.root.get("children", []):
            self.visit(child, [])
        self.lines.sort()
        return [text for _, text in self.lines]

    def visit(self, node, parents):
        if node.get("kind") == "TypeDecl" and node.get("isExternal"):
            # An extension of another module's type: its members, under that type's full name. (The dump
            # lists all of the type's conformances, not the ones this module adds, so none are shown.)
            name = self.clean(self.demangled.get(node.get("mangledName"), node["printedName"]))
            for child in node.get("children", []):
                self.visit(child, parents + [(name, node)])
            return
        if not self.is_public_api(node):
            return
        kind = node["declKind"]
        if node["kind"] == "TypeDecl":
            self.type_line(node, parents)
            path = parents + [(node["printedName"], node)]
            for child in node.get("children", []):
                self.visit(child, path)
        elif kind in ("Func", "Constructor", "Subscript"):
            self.function_line(node, parents)
        elif kind == "Var":
            self.var_line(node, parents)
        elif kind == "EnumElement":
            self.case_line(node, parents)
        elif kind == "TypeAlias":
            self.typealias_line(node, parents)
        else:
            self.add(parents, node["printedName"], f"{kind.lower()} {self.path(parents, node['printedName'])}")

    def add(self, parents, name, text):
        key = tuple(p for p, _ in parents) + (name,)
        self.lines.append(((key, text), text))

    @staticmethod
    def path(parents, name):
        return ".".join([p for p, _ in parents] + [name])

    # -- pieces

    def attributes(self, node, parents):
        words = []
        parent = parents[-1][1] if parents else None
        if parent is not None and parent.get("declKind") == "Protocol" and node["kind"] != "TypeDecl":
            if not node.get("protocolReq"):
                words.append("extension")
        if node.get("isDeprecated"):
            words.append("@available(*, deprecated)")
        for attribute in sorted(node.get("declAttributes", [])):
            if attribute == "Final" and node["kind"] != "TypeDecl" and self.is_final(parent):
                continue  # every member of a final class or an actor is final
            if attribute in ATTRIBUTES:
                spelled = ATTRIBUTES[attribute]
                if spelled and not (spelled == "@available" and node.get("isDeprecated")):
                    words.append(spelled)
            else:
                words.append("@" + attribute)
        if node.get("isOpen"):
            words.append("open")
        if node.get("static"):
            words.append("static")
        if node.get("funcSelfKind") in SELF_KINDS:
            words.append(SELF_KINDS[node["funcSelfKind"]])
        return "".join(w + " " for w in words)

    @staticmethod
    def is_final(node):
        if node is None:
            return False
        actor = any(c.get("printedName") == "Actor" for c in node.get("conformances", []))
        return actor or "Final" in node.get("declAttributes", []) or node.get("declKind") != "Class"

    def conformances(self, node, with_markers=True):
        names = sorted({c["printedName"] for c in node.get("conformances", [])})
        shown = [self.clean(n) for n in names if n not in MARKER_PROTOCOLS and n not in QUIET_CONFORMANCES]
        shown = [n for n in shown if not n.startswith("_")]
        if with_markers:
            shown += ["~" + m for m in MARKER_PROTOCOLS if m not in names]
        return shown

    def parent_generics(self, parents):
        """The generic parameters and requirements a member inherits from its type."""
        if not parents:
            return [], []
        parent_name, parent = parents[-1]
        params, requirements = parse_generic_signature(parent.get("genericSig"))
        if parent.get("declKind") == "Protocol":
            qualified = self.qualified_name(parents)
            return ["Self"], [f"Self : {qualified}"]
        return params, requirements

    def qualified_name(self, parents):
        """The parent type's name as the digester spells it in a requirement (Module.Type.Nested)."""
        _, parent = parents[-1]
        module = parent.get("moduleName", self.module)
        return ".".join([module] + [p for p, _ in parents])

    def generics(self, node, parents):
        """(`<T, U>`, ` where T: P`) for a declaration, without what its type already declares."""
        params, requirements = parse_generic_signature(node.get("genericSig"))
        inherited_params, inherited_requirements = self.parent_generics(parents)
        if node["kind"] == "TypeDecl" and node.get("declKind") == "Protocol":
            requirements = [r for r in requirements if not r.startswith("Self : ")]
        params = [p for p in params if p not in inherited_params]
        requirements = [r for r in requirements if r not in inherited_requirements]
        params_text = f"<{', '.join(params)}>" if params else ""
        where = [self.clean(r).replace(" : ", ": ") for r in requirements]
        where_text = f" where {', '.join(where)}" if where else ""
        return self.clean(params_text), where_text

    @staticmethod
    def labels(printed_name):
        """`append(_:at:)` -> ("append", ["_", "at"]); `subscript(_:)` -> ("subscript", ["_"])."""
        if "(" not in printed_name:
            return printed_name, []
        base, rest = printed_name.split("(", 1)
        return base, [label for label in rest.rstrip(")").split(":") if label != ""]

    def type_text(self, node, demangled_type=None):
        return self.clean(with_closure_attributes(node["printedName"], demangled_type, lambda s: s))

    def demangled_for(self, node, base_name=None):
        mangled = node.get("mangledName")
        if not mangled or mangled not in self.demangled:
            return None
        return parse_demangled(self.demangled[mangled], node["declKind"], base_name)

    # -- declarations

    def type_line(self, node, parents):
        kind = node["declKind"]
        conformances = self.conformances(node)
        if kind == "Class":
            if "Actor" in conformances:
                conformances.remove("Actor")
                kind = "actor"
            else:
                kind = "class"
        else:
            kind = kind.lower()
        inheritance = []
        if node.get("enumRawTypeName"):
            inheritance.append(self.clean(node["enumRawTypeName"]))
        inheritance += [self.clean(s) for s in node.get("superclassNames", [])[:1]]
        inheritance += conformances
        params, where = self.generics(node, parents)
        inherits = f": {', '.join(inheritance)}" if inheritance else ""
        name = node["printedName"]
        text = f"{self.attributes(node, parents)}{kind} {self.path(parents, name)}{params}{inherits}{where}"
        self.add(parents, name, text)

    def function_line(self, node, parents):
        kind = node["declKind"]
        base, labels = self.labels(node["printedName"])
        children = node.get("children", [])
        result, params = (children[0], children[1:]) if children else (None, [])
        demangled = self.demangled_for(node, base)
        demangled_params = demangled.params if demangled else None
        if demangled_params is not None and len(demangled_params) != len(params):
            demangled_params = None
        rendered = []
        for index, param in enumerate(params):
            label = labels[index] if index < len(labels) else "_"
            text = self.type_text(param, demangled_params[index] if demangled_params else None)
            ownership = OWNERSHIP.get(param.get("paramValueOwnership"))
            if ownership and not text.startswith(ownership + " "):
                text = f"{ownership} {text}"
            if param.get("kind") == "TypeFunc" and "noescape" not in param.get("typeAttributes", []):
                text = f"@escaping {text}"
            if param.get("hasDefaultArg"):
                text += " = default"
            rendered.append(f"{label}: {text}")
        effects = ""
        if demangled and demangled.is_async:
            effects += " async"
        if "Rethrows" in node.get("declAttributes", []):
            effects += " rethrows"
        elif demangled and demangled.throws:
            effects += " " + self.clean(demangled.throws)
        elif node.get("throwing"):
            effects += " throws"
        params_text, where = self.generics(node, parents)
        arguments = f"{params_text}({', '.join(rendered)}){effects}"
        owner = self.path(parents, "")[:-1] if parents else ""
        attributes = self.attributes(node, parents)
        if kind == "Constructor":
            failable = "?" if result is not None and result["printedName"].endswith("?") else ""
            convenience = "convenience " if node.get("init_kind") == "Convenience" else ""
            text = f"{attributes}{convenience}init{failable} {owner}{arguments}{where}"
        else:
            returns = ""
            if result is not None and result["printedName"] not in ("()", "Swift.Void", "Void"):
                returns = " -> " + self.type_text(result, demangled.result if demangled else None)
            if kind == "Subscript":
                accessors = self.accessors(node)
                text = f"{attributes}subscript {owner}{params_text}[{', '.join(rendered)}]{effects}{returns}{where}"
                text += accessors
            else:
                text = f"{attributes}func {self.path(parents, base)}{arguments}{returns}{where}"
        self.add(parents, node["printedName"], text)

    @staticmethod
    def accessors(node):
        kinds = {a.get("accessorKind") or a.get("name", "").lower() for a in node.get("accessors", [])}
        return " { get set }" if "set" in kinds else " { get }"

    def var_line(self, node, parents):
        demangled = self.demangled_for(node)
        children = node.get("children", [])
        type_text = self.type_text(children[0], demangled.var_type if demangled else None) if children else "?"
        keyword = "let" if node.get("isLet") else "var"
        accessors = "" if node.get("isLet") else self.accessors(node)
        name = node["printedName"]
        text = f"{self.attributes(node, parents)}{keyword} {self.path(parents, name)}: {type_text}{accessors}"
        self.add(parents, name, text)

    def case_line(self, node, parents):
        payload = ""
        children = node.get("children", [])
        constructor = children[0] if children else None
        # `(E.Type) -> (payload) -> E` for a case with a payload, `(E.Type) -> E` without.
        if constructor and constructor.get("kind") == "TypeFunc":
            inner = constructor.get("children", [None])[0]
            if inner is not None and inner.get("kind") == "TypeFunc" and len(inner.get("children", [])) > 1:
                values = inner["children"][1]
                demangled = self.demangled_for(node)
                demangled_payload = demangled.params[0] if demangled and demangled.params else None
                text = values["printedName"]
                if not (values.get("kind") == "TypeNominal" and values.get("name") == "Tuple"):
                    text = f"({text})"
                payload = self.clean(with_closure_attributes(text, demangled_payload, lambda s: s))
        name = node["printedName"]
        self.add(parents, name, f"{self.attributes(node, parents)}case {self.path(parents, name)}{payload}")

    def typealias_line(self, node, parents):
        children = node.get("children", [])
        target = self.type_text(children[0]) if children else "?"
        params, where = self.generics(node, parents)
        name = node["printedName"]
        text = f"{self.attributes(node, parents)}typealias {self.path(parents, name)}{params} = {target}{where}"
        self.add(parents, name, text)


def mangled_names(node, names):
    kinds = ("Func", "Constructor", "Subscript", "Var", "EnumElement")
    if node.get("mangledName") and (node.get("declKind") in kinds or node.get("isExternal")):
        names.add(node["mangledName"])
    for child in node.get("children", []):
        mangled_names(child, names)
    return names


def default_demangler():
    swift = shutil.which("swift")
    if swift:
        candidate = os.path.join(os.path.dirname(os.path.realpath(swift)), "swift-demangle")
        if os.access(candidate, os.X_OK):
            return candidate
    return shutil.which("swift-demangle")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out-dir", required=True, help="where to write <Module>.txt")
    parser.add_argument("--demangle", help="the swift-demangle binary (default: next to swift on PATH)")
    parser.add_argument("dumps", nargs="+", help="swift-api-digester -dump-sdk output, one per module")
    options = parser.parse_args()
    demangler = options.demangle or default_demangler()
    if not demangler:
        fail("cannot find swift-demangle (it comes with the Swift toolchain); pass --demangle PATH")
    os.makedirs(options.out_dir, exist_ok=True)
    for dump in options.dumps:
        module = os.path.splitext(os.path.basename(dump))[0]
        try:
            with open(dump, encoding="utf-8") as handle:
                root = json.load(handle)["ABIRoot"]
        except (OSError, ValueError, KeyError) as error:
            fail(f"cannot read the digester dump {dump}: {error}")
        names = sorted(mangled_names(root, set()))
        lines = Baseline(module, root, demangle_all(demangler, names)).run()
        header = [
            f"# The public API of the {module} module, one declaration a line (see api/README.md).",
            "# Generated by scripts/api-check --update from swift-api-digester -dump-sdk: do not edit by hand.",
        ]
        with open(os.path.join(options.out_dir, module + ".txt"), "w", encoding="utf-8") as handle:
            handle.write("\n".join(header + lines) + "\n")


if __name__ == "__main__":
    main()
