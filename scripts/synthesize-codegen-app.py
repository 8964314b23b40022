#!/usr/bin/env python3
"""Issue 28, item 6: writes a large app's GraphQL, deterministically (the same files every run),
for scripts/bench-codegen: a schema of about 1,500 types (object types with connections and
edges, interfaces, unions, enums, input objects, custom scalars) and about 1,000 documents
(fragments, queries and mutations as an app writes them: nested selections, fragment spreads,
type cases on interfaces and unions, variables of enum and input types, aliases, @include).

    scripts/synthesize-codegen-app.py OUTPUT_DIR [--scale FACTOR]

Writes OUTPUT_DIR/schema.graphqls and OUTPUT_DIR/graphql/<Name>.graphql (one definition a file).
"""
import os
import random
import sys

args = sys.argv[1:]
if not args:
    sys.exit(__doc__)
out = args[0]
scale = float(args[args.index("--scale") + 1]) if "--scale" in args else 1.0
rng = random.Random(28)

N_OBJECTS = int(800 * scale)      # plus a connection and an edge type for 1 in 8: ~1,000 objects
N_INTERFACES = int(60 * scale)
N_UNIONS = int(40 * scale)
N_ENUMS = int(200 * scale)
N_INPUTS = int(200 * scale)
N_SCALARS = 4
N_FRAGMENTS = int(400 * scale)
N_QUERIES = int(480 * scale)
N_MUTATIONS = int(120 * scale)

words = ("account item order price project user team label comment review status title amount owner member "
         "address invoice payment message channel image video media tag event venue ticket seat route stop "
         "vehicle driver trip station booking product variant stock store cart note task board column card "
         "repository issue release branch commit author file folder share link device session token plan "
         "quota usage metric alert rule policy region zone cluster node pod volume secret config job step").split()


def camel(parts):
    return parts[0] + "".join(p.capitalize() for p in parts[1:])


def pascal(parts):
    return "".join(p.capitalize() for p in parts)


def unique_names(count, make, taken):
    names = []
    while len(names) < count:
        name = make()
        if name not in taken:
            taken.add(name)
            names.append(name)
    return names


taken = {"Query", "Mutation", "PageInfo", "Node"}
objects = unique_names(N_OBJECTS, lambda: pascal(rng.sample(words, 2)), taken)
interfaces = unique_names(N_INTERFACES, lambda: pascal(rng.sample(words, 2)) + "Interface", taken)
unions = unique_names(N_UNIONS, lambda: pascal(rng.sample(words, 2)) + "Result", taken)
enums = unique_names(N_ENUMS, lambda: pascal(rng.sample(words, 2)) + "Kind", taken)
inputs = unique_names(N_INPUTS, lambda: pascal(rng.sample(words, 2)) + "Input", taken)
scalars = ["DateTime", "URL", "JSON", "Decimal"][:N_SCALARS]

enum_values = {e: [w.upper() for w in rng.sample(words, rng.randint(3, 8))] for e in enums}
leaf_types = ["String", "String", "Int", "Float", "Boolean", "ID"] + scalars

# Fields of each object: scalars and enums, links to other objects, lists, some connections. A
# field name has one type and one argument list everywhere (as in a real schema, and so that type
# cases on a union or an interface never select one name with two shapes).
definitions = {}  # field name -> (type text, args text)
link_targets = objects + interfaces + unions


def leaf_field(name):
    if name not in definitions:
        base = rng.choice(enums) if rng.random() < 0.2 else rng.choice(leaf_types)
        definitions[name] = (base + rng.choice(["", "!"]), "")
    return definitions[name]


def link_field(name):
    if name not in definitions:
        target = rng.choice(link_targets)
        shape = rng.random()
        if shape < 0.55:
            definitions[name] = (target, "")
        elif shape < 0.85:
            definitions[name] = ("[" + target + "!]!", "")
        else:
            definitions[name] = ("[" + target + "]", "(first: Int, status: %s)" % rng.choice(enums))
    return definitions[name]


fields = {}      # type -> [(name, type text, args text)]
implements = {}  # object -> [interface]
interface_fields = {}
connections = []
for i in interfaces:
    interface_fields[i] = [("id", "ID!", "")]
    for _ in range(rng.randint(2, 4)):
        name = camel(rng.sample(words, 2)) + "Info"
        if all(name != f[0] for f in interface_fields[i]):
            interface_fields[i].append((name,) + leaf_field(name))
for o in objects:
    own = [("id", "ID!", "")]
    names = {"id"}
    chosen = rng.sample(interfaces, rng.choice([0, 0, 1, 1, 2]))
    implements[o] = chosen
    for i in chosen:
        for f in interface_fields[i]:
            if f[0] not in names:
                names.add(f[0])
                own.append(f)
    for _ in range(rng.randint(4, 10)):
        name = camel(rng.sample(words, rng.choice([1, 2])))
        if name not in names and name not in ("node", "edges", "pageInfo", "cursor"):
            names.add(name)
            own.append((name,) + leaf_field(name))
    for _ in range(rng.randint(2, 5)):
        name = camel(rng.sample(words, 2)) + "Link"
        if name not in names:
            names.add(name)
            own.append((name,) + link_field(name))
    if rng.random() < 0.125:
        target = rng.choice(objects)
        connection = o + target + "Connection"
        connections.append((connection, target))
        own.append((o[0].lower() + o[1:] + target + "Connection", connection + "!", "(first: Int, after: String)"))
    fields[o] = own
for connection, target in connections:
    edge = connection[:-len("Connection")] + "Edge"
    objects.append(edge)
    fields[edge] = [("cursor", "String!", ""), ("node", target, "")]
    objects.append(connection)
    fields[connection] = [("edges", "[" + edge + "]", ""), ("pageInfo", "PageInfo!", ""), ("totalCount", "Int!", "")]
    implements[edge] = []
    implements[connection] = []

union_members = {u: rng.sample(objects[:N_OBJECTS], rng.randint(2, 5)) for u in unions}
input_fields = {}
for n, inp in enumerate(inputs):
    own = []
    names = set()
    for _ in range(rng.randint(2, 7)):
        name = camel(rng.sample(words, rng.choice([1, 2])))
        if name in names:
            continue
        names.add(name)
        kind = rng.random()
        if kind < 0.25:
            t = rng.choice(enums)
        elif kind < 0.35 and n > 0:
            t = rng.choice(inputs[:n])  # no cycles
        else:
            t = rng.choice(leaf_types)
        own.append((name, t + rng.choice(["", "!", ""])))
    input_fields[inp] = own

roots = rng.sample(objects[:N_OBJECTS], min(300, N_OBJECTS))
query_fields = [(camel([r[0].lower() + r[1:]]), r, "(id: ID!)") for r in roots]
query_fields += [(camel([u[0].lower() + u[1:]]) + "s", "[" + u + "!]!", "(text: String!, kind: %s)" % rng.choice(enums)) for u in unions]
query_fields += [(camel([i[0].lower() + i[1:]]) + "s", "[" + i + "!]!", "(filter: %s)" % rng.choice(inputs)) for i in interfaces]
query_fields.append(("node", "Node", "(id: ID!)"))
mutation_fields = []
for n in range(N_MUTATIONS):
    target = rng.choice(objects[:N_OBJECTS])
    mutation_fields.append(("mutate" + target + str(n), target, "(input: %s!)" % rng.choice(inputs)))

os.makedirs(os.path.join(out, "graphql"), exist_ok=True)
with open(os.path.join(out, "schema.graphqls"), "w") as f:
    f.write("schema { query: Query mutation: Mutation }\n\n")
    for s in scalars:
        f.write("scalar %s\n" % s)
    f.write("\ninterface Node { id: ID! }\n")
    f.write("type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }\n\n")
    f.write("type Query {\n" + "".join("  %s%s: %s\n" % (n, a, t) for n, t, a in query_fields) + "}\n\n")
    f.write("type Mutation {\n" + "".join("  %s%s: %s\n" % (n, a, t) for n, t, a in mutation_fields) + "}\n\n")
    for i in interfaces:
        f.write("interface %s {\n" % i + "".join("  %s: %s\n" % (n, t) for n, t, _ in interface_fields[i]) + "}\n")
    for o in objects:
        impl = (["Node"] if fields[o][0][0] == "id" else []) + implements[o]
        f.write("type %s%s {\n" % (o, " implements " + " & ".join(impl) if impl else ""))
        f.write("".join("  %s%s: %s\n" % (n, a, t) for n, t, a in fields[o]) + "}\n")
    for u in unions:
        f.write("union %s = %s\n" % (u, " | ".join(union_members[u])))
    for e in enums:
        f.write("enum %s { %s }\n" % (e, " ".join(enum_values[e])))
    for inp in inputs:
        f.write("input %s {\n" % inp + "".join("  %s: %s\n" % (n, t) for n, t in input_fields[inp]) + "}\n")

type_fields = dict(fields)
type_fields.update(interface_fields)
type_fields["Node"] = [("id", "ID!", "")]
type_fields["PageInfo"] = [("hasNextPage", "Boolean!", ""), ("hasPreviousPage", "Boolean!", ""), ("startCursor", "String", ""),
                           ("endCursor", "String", "")]
implementers_of = {i: [o for o in objects if i in implements.get(o, [])] for i in interfaces}
implementers_of["Node"] = [o for o in objects if fields[o][0][0] == "id"]


def named(t):
    return t.strip("[]!").rstrip("!").strip("[]!")


def composite(t):
    return t in type_fields or t in union_members


def selection(type_name, depth, fragments_on, indent):
    """A selection set on type_name: scalars, nested objects, spreads, type cases."""
    pad = "  " * indent
    lines = []
    if type_name in union_members:
        lines.append(pad + "__typename")
        for member in rng.sample(union_members[type_name], min(2, len(union_members[type_name]))):
            lines.append(pad + "... on %s {" % member)
            lines += selection(member, depth + 1, fragments_on, indent + 1)
            lines.append(pad + "}")
        return lines
    own = type_fields[type_name]
    leaves = [f for f in own if not composite(named(f[1]))]
    links = [f for f in own if composite(named(f[1]))]
    for n, t, a in rng.sample(leaves, min(len(leaves), rng.randint(2, 6))):
        if a:
            continue
        if rng.random() < 0.05:
            lines.append(pad + "%s: %s" % (n + "Alias", n))
        elif rng.random() < 0.04:
            lines.append(pad + "%s @include(if: $flag)" % n)
        else:
            lines.append(pad + n)
    if depth < 3:
        for n, t, a in rng.sample(links, min(len(links), rng.randint(1, 3) if depth < 2 else 1)):
            target = named(t)
            arguments = ""
            if a.startswith("(first"):
                arguments = "(first: 10)"
            lines.append(pad + "%s%s {" % (n, arguments))
            lines += selection(target, depth + 1, fragments_on, indent + 1)
            lines.append(pad + "}")
    candidates = fragments_on.get(type_name, [])
    for spread in rng.sample(candidates, min(len(candidates), rng.randint(0, 2))):
        lines.append(pad + "...%s" % spread)
    if type_name in implementers_of and rng.random() < 0.5:
        implementers = implementers_of[type_name]
        if implementers:
            member = rng.choice(implementers)
            lines.append(pad + "... on %s {" % member)
            lines += selection(member, depth + 1, fragments_on, indent + 1)
            lines.append(pad + "}")
    if not lines:
        lines.append(pad + "__typename")
    return lines


fragments_on = {}
documents = []
fragment_targets = rng.choices(objects[:N_OBJECTS] + interfaces, k=N_FRAGMENTS)
for n, target in enumerate(fragment_targets):
    name = target + "Fields" + str(n)
    body = selection(target, 1, fragments_on, 1)
    uses_flag = any("$flag" in line for line in body)
    if uses_flag:
        body = [line.replace(" @include(if: $flag)", "") for line in body]
    documents.append((name, "fragment %s on %s {\n%s\n}\n" % (name, target, "\n".join(body))))
    fragments_on.setdefault(target, []).append(name)


def operation(kind, name, field, type_text, argument_text):
    variables = []
    arguments = []
    for part in argument_text.strip("()").split(", ") if argument_text else []:
        arg, arg_type = part.split(": ")
        variables.append("$%s: %s" % (arg, arg_type))
        arguments.append("%s: $%s" % (arg, arg))
    body = selection(named(type_text), 1, fragments_on, 2)
    if any("$flag" in line for line in body):
        variables.append("$flag: Boolean!")
    head = "%s %s%s" % (kind, name, "(" + ", ".join(variables) + ")" if variables else "")
    call = field + ("(" + ", ".join(arguments) + ")" if arguments else "")
    return "%s {\n  %s {\n%s\n  }\n}\n" % (head, call, "\n".join(body))


for n in range(N_QUERIES):
    field, type_text, argument_text = rng.choice(query_fields)
    name = "Get" + pascal([field[0].upper() + field[1:]]) + str(n)
    documents.append((name, operation("query", name, field, type_text, argument_text)))
for n, (field, type_text, argument_text) in enumerate(mutation_fields):
    name = "Do" + field[0].upper() + field[1:]
    documents.append((name, operation("mutation", name, field, type_text, argument_text)))

for name, text in documents:
    with open(os.path.join(out, "graphql", name + ".graphql"), "w") as f:
        f.write(text)
print("%d schema types, %d fragments, %d operations" % (
    len(objects) + len(interfaces) + len(unions) + len(enums) + len(inputs) + len(scalars) + 4,
    N_FRAGMENTS, N_QUERIES + N_MUTATIONS), file=sys.stderr)
