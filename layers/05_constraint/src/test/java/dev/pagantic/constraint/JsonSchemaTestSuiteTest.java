package dev.pagantic.constraint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.inference.grammar.GbnfGrammar;
import dev.pagantic.inference.grammar.SchemaGrammar;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The official JSON Schema Test Suite (draft 2020-12) run through pagantic's schema model: every case of every file
 * of {@code tests/draft2020-12} and {@code tests/draft2020-12/optional/format}, cases nobody on the project wrote.
 *
 * <ul>
 *   <li>A schema is either read or refused; a refusal must name a keyword pagantic documents as unsupported
 *       ({@link #UNSUPPORTED}), never one it claims to support.</li>
 *   <li>For every case of a read schema, the validator agrees with the suite's {@code valid}. The one deliberate
 *       difference: pagantic asserts {@code format} (the suite's {@code format.json} tests the annotation-only
 *       default), so that file's cases are checked against the assertion instead: its strings described as invalid
 *       must be refused, everything else accepted.</li>
 *   <li>The grammar derived from the schema accepts every valid instance, written as compact JSON in the key order a
 *       constrained model would use (some order of its keys must be accepted), and refuses every invalid instance
 *       in every key order, unless the schema has keywords the grammar leaves to the validator
 *       ({@link SchemaGrammar#validatedAfter()}), in which case an invalid instance it accepts is counted as caught
 *       by the validator.</li>
 * </ul>
 * The per-keyword results are the table in {@code docs/json-schema.md}; the test fails when that table is not what
 * this run produced (run with {@code -Dpagantic.updateDocs=true} to rewrite it). The suite is read from
 * {@code ../shared/json-schema-test-suite} beside the repository, or the folder named by the system property
 * {@value #PROPERTY} or the environment variable {@value #VARIABLE}; without it the test is skipped, except in CI.
 */
class JsonSchemaTestSuiteTest {

    static final String PROPERTY = "pagantic.jsonSchemaTestSuite";
    static final String VARIABLE = "PAGANTIC_JSON_SCHEMA_TEST_SUITE";

    /**
     * The refusals pagantic documents: keyword, and what the refusal says. Anchors, dynamic references, vocabularies,
     * embedded resources, other dialects and remote references are out of its scope; patterns are read by Java's
     * regular expressions (the validator's), which lack some ECMA-262 syntax; and the formats whose checks are not
     * exact are refused rather than half-checked.
     */
    private static final Map<String, String> UNSUPPORTED = Map.of("$anchor", "", "$dynamicAnchor", "",
            "$dynamicRef", "", "$vocabulary", "", "$id", "only supported on the root", "$schema", "draft 2020-12",
            "$ref", "only local references", "pattern", "not a valid regular expression",
            "patternProperties", "not a valid regular expression", "format", "is not supported");

    /** Files outside the scope of the test: remote references need a server (see the suite's README). */
    private static final Set<String> SKIPPED = Set.of("refRemote.json");

    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
            .build();

    private static final int MAX_KEY_ORDERS = 5040;

    private final SchemaValidator validator = new SchemaValidator();

    /** The results of one file. */
    static final class Tally {
        int groups;
        int refusedGroups;
        final Set<String> refusedFor = new java.util.TreeSet<>();
        int cases;
        int validatorAgrees;
        int valid;
        int grammarAcceptsValid;
        int invalid;
        int grammarRefusesInvalid;
        int leftToValidator;
        int grammarUnavailable;
        final List<String> failures = new ArrayList<>();
    }

    @Test
    void theValidatorAgreesWithTheSuiteAndTheGrammarAcceptsItsValidInstancesAndRefusesTheInvalidOnes()
            throws IOException {
        Path suite = suiteDirectory();
        Map<String, Tally> tallies = new TreeMap<>();
        Path tests = suite.resolve("tests/draft2020-12");
        List<Path> files = new ArrayList<>();
        try (Stream<Path> main = Files.list(tests); Stream<Path> formats = Files.list(tests.resolve("optional/format"))) {
            main.filter(p -> p.toString().endsWith(".json")).forEach(files::add);
            formats.filter(p -> p.toString().endsWith(".json")).forEach(files::add);
        }
        for (Path file : files) {
            String name = tests.relativize(file).toString().replace('\\', '/');
            if (SKIPPED.contains(name)) {
                continue;
            }
            tallies.put(name, run(name, JSON.readTree(Files.readString(file, StandardCharsets.UTF_8))));
        }
        List<String> failures = new ArrayList<>();
        tallies.forEach((name, tally) -> tally.failures.forEach(failure -> failures.add(name + ": " + failure)));
        assertThat(failures).as("suite cases pagantic gets wrong").isEmpty();
        checkDocumentation(table(tallies));
    }

    private Tally run(String file, JsonNode groups) {
        Tally tally = new Tally();
        boolean annotationFormats = file.equals("format.json");
        for (JsonNode group : groups) {
            tally.groups++;
            Schema schema;
            Map<String, Object> document = schemaDocument(group.get("schema"));
            try {
                schema = Schema.fromJsonSchema(document);
            } catch (PaganticException refused) {
                tally.refusedGroups++;
                Object keyword = refused.details().get("keyword");
                tally.refusedFor.add(String.valueOf(keyword));
                String documented = UNSUPPORTED.get(String.valueOf(keyword));
                if (documented == null || !refused.getMessage().contains(documented)) {
                    tally.failures.add("refused '" + group.get("description").asString() + "': "
                            + refused.getMessage());
                }
                continue;
            }
            Optional<SchemaGrammar> grammar;
            try {
                grammar = Optional.of(SchemaGrammar.of(schema));
            } catch (PaganticException refused) {
                // A schema no value satisfies has no grammar: right, if the suite has no valid instance of it.
                grammar = Optional.empty();
                boolean noInstance = refused.getMessage().contains("no JSON value satisfies it");
                boolean anyValid = false;
                for (JsonNode test : group.get("tests")) {
                    anyValid |= test.get("valid").asBoolean();
                }
                if (!noInstance || anyValid) {
                    tally.failures.add("no grammar for '" + group.get("description").asString() + "': "
                            + refused.getMessage());
                }
            }
            for (JsonNode test : group.get("tests")) {
                tally.cases++;
                check(tally, group, test, schema, grammar, annotationFormats);
            }
        }
        return tally;
    }

    private void check(Tally tally, JsonNode group, JsonNode test, Schema schema, Optional<SchemaGrammar> grammar,
                       boolean annotationFormats) {
        JsonNode data = test.get("data");
        boolean valid = test.get("valid").asBoolean();
        boolean validatorValid = validator.violations(data, schema).isEmpty();
        String what = "'" + group.get("description").asString() + "' / '" + test.get("description").asString()
                + "' " + compact(data);
        if (annotationFormats) {
            // pagantic asserts formats: the file's "invalid ... string is only an annotation" cases must be invalid
            valid = !(data.isString() && test.get("description").asString().startsWith("invalid"));
        }
        if (validatorValid == valid) {
            tally.validatorAgrees++;
        } else {
            tally.failures.add("validator says " + (validatorValid ? "valid" : "invalid") + ": " + what);
        }
        if (grammar.isEmpty()) {
            tally.grammarUnavailable++;
            if (!valid) {
                tally.invalid++;
                tally.grammarRefusesInvalid++; // no grammar: nothing can be generated, the invalid instance neither
            }
            return;
        }
        boolean accepted = acceptsInSomeKeyOrder(grammar.get().grammar(), data);
        if (valid) {
            tally.valid++;
            if (accepted) {
                tally.grammarAcceptsValid++;
            } else {
                tally.failures.add("grammar refuses a valid instance: " + what + "\n" + grammar.get().grammar().text());
            }
        } else {
            tally.invalid++;
            if (!accepted) {
                tally.grammarRefusesInvalid++;
            } else if (!grammar.get().exact()) {
                tally.leftToValidator++;
            } else {
                tally.failures.add("the grammar claims to enforce the whole schema but accepts an invalid instance: "
                        + what + "\n" + grammar.get().grammar().text());
            }
        }
    }

    // -------------------------------------------------------------------------------------------- instances

    private static boolean acceptsInSomeKeyOrder(GbnfGrammar grammar, JsonNode data) {
        return variants(data).stream().anyMatch(grammar::accepts);
    }

    /** The instance as compact JSON, in every key order of its objects (at most {@link #MAX_KEY_ORDERS}). */
    private static List<String> variants(JsonNode data) {
        if (data.isArray()) {
            List<List<String>> items = new ArrayList<>();
            data.forEach(item -> items.add(variants(item)));
            return product(items, "[", ",", "]");
        }
        if (!data.isObject()) {
            return List.of(scalar(data));
        }
        List<String> out = new ArrayList<>();
        for (List<String> order : permutations(new ArrayList<>(data.propertyNames()))) {
            List<List<String>> members = new ArrayList<>();
            for (String key : order) {
                members.add(variants(data.get(key)).stream().map(value -> string(key) + ":" + value).toList());
            }
            out.addAll(product(members, "{", ",", "}"));
            if (out.size() >= MAX_KEY_ORDERS) {
                break;
            }
        }
        return out;
    }

    /** Every choice of one text per part, joined (at most {@link #MAX_KEY_ORDERS}). */
    private static List<String> product(List<List<String>> parts, String open, String separator, String close) {
        List<String> out = List.of("");
        for (int i = 0; i < parts.size(); i++) {
            List<String> next = new ArrayList<>();
            for (String prefix : out) {
                for (String part : parts.get(i)) {
                    if (next.size() < MAX_KEY_ORDERS) {
                        next.add(prefix + (i > 0 ? separator : "") + part);
                    }
                }
            }
            out = next;
        }
        return out.stream().map(text -> open + text + close).toList();
    }

    private static List<List<String>> permutations(List<String> keys) {
        List<List<String>> out = new ArrayList<>();
        permute(keys, 0, out);
        return out;
    }

    private static void permute(List<String> keys, int from, List<List<String>> out) {
        if (from >= keys.size() - 1) {
            out.add(new ArrayList<>(keys));
            return;
        }
        for (int i = from; i < keys.size() && out.size() < MAX_KEY_ORDERS; i++) {
            java.util.Collections.swap(keys, from, i);
            permute(keys, from + 1, out);
            java.util.Collections.swap(keys, from, i);
        }
    }

    /** A scalar as a constrained model writes it: numbers in their shortest exact form, strings as Jackson does. */
    private static String scalar(JsonNode data) {
        if (data.isNumber()) {
            BigDecimal decimal = data.decimalValue();
            BigDecimal stripped = decimal.signum() == 0 ? BigDecimal.ZERO : decimal.stripTrailingZeros();
            if (stripped.scale() <= 0 && stripped.precision() - stripped.scale() <= 20) {
                return stripped.toBigIntegerExact().toString();
            }
            return stripped.toString().replace("E+", "E");
        }
        if (data.isString()) {
            return string(data.asString());
        }
        return data.toString(); // true, false, null
    }

    private static String string(String value) {
        return JSON.writeValueAsString(value);
    }

    private static String compact(JsonNode data) {
        String text = data.toString();
        return text.length() > 200 ? text.substring(0, 200) + "..." : text;
    }

    /** A suite schema as a document: a boolean schema is {} (true) or {"not": {}} (false). */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> schemaDocument(JsonNode schema) {
        if (schema.isBoolean()) {
            return schema.asBoolean() ? Map.of() : Map.of("not", Map.of());
        }
        return JSON.convertValue(schema, LinkedHashMap.class);
    }

    // -------------------------------------------------------------------------------------------- the table

    private static String table(Map<String, Tally> tallies) {
        StringBuilder out = new StringBuilder();
        out.append("| keyword (suite file) | enforced in the grammar | validated after | suite cases passed "
                + "| grammar accepts the valid instances | grammar refuses the invalid ones | schemas refused by design |\n");
        out.append("| --- | --- | --- | --- | --- | --- | --- |\n");
        int cases = 0;
        int passed = 0;
        for (Map.Entry<String, Tally> entry : tallies.entrySet()) {
            Tally t = entry.getValue();
            cases += t.cases;
            passed += t.validatorAgrees;
            String enforced = t.cases == 0 ? "-" : t.invalid == 0 ? "yes (no invalid case)"
                    : t.grammarRefusesInvalid == t.invalid ? "yes"
                    : t.grammarRefusesInvalid == 0 ? "no" : "partly";
            String after = t.cases == 0 ? "-" : t.leftToValidator > 0 ? "yes (" + t.leftToValidator + " of "
                    + t.invalid + " invalid)" : "no";
            String refused = t.refusedGroups == 0 ? "" : t.refusedGroups + " of " + t.groups + " ("
                    + String.join(", ", t.refusedFor) + ")";
            String file = entry.getKey().replace(".json", "");
            String keyword = file.startsWith("optional/format/") ? "format: " + file.substring(16) : file;
            out.append("| ").append(keyword).append(" (").append(entry.getKey()).append(") | ").append(enforced)
                    .append(" | ").append(after).append(" | ").append(t.validatorAgrees).append(" / ").append(t.cases)
                    .append(" | ").append(t.grammarAcceptsValid).append(" / ").append(t.valid)
                    .append(" | ").append(t.grammarRefusesInvalid).append(" / ").append(t.invalid)
                    .append(" | ").append(refused).append(" |\n");
        }
        out.append("| **all** | | | **").append(passed).append(" / ").append(cases).append("** | | | |\n");
        return out.toString();
    }

    private static final String START = "<!-- json-schema-test-suite:start -->";
    private static final String END = "<!-- json-schema-test-suite:end -->";

    private static void checkDocumentation(String table) throws IOException {
        Path doc = repositoryRoot().resolve("docs/json-schema.md");
        String text = Files.readString(doc, StandardCharsets.UTF_8);
        int start = text.indexOf(START);
        int end = text.indexOf(END);
        assertThat(start).as("%s holds the markers %s and %s", doc, START, END).isNotNegative();
        assertThat(end).isGreaterThan(start);
        String current = text.substring(start + START.length(), end).strip();
        if (Boolean.getBoolean("pagantic.updateDocs")) {
            Files.writeString(doc, text.substring(0, start + START.length()) + "\n" + table + text.substring(end),
                    StandardCharsets.UTF_8);
            return;
        }
        assertThat(current).as("the suite table in %s is this run's (rewrite it with -Dpagantic.updateDocs=true)",
                doc).isEqualTo(table.strip());
    }

    // -------------------------------------------------------------------------------------------- locations

    static Path suiteDirectory() {
        String configured = System.getProperty(PROPERTY, System.getenv(VARIABLE));
        Path directory = configured != null && !configured.isBlank() ? Path.of(configured)
                : repositoryRoot().resolve("../shared/json-schema-test-suite").normalize();
        if (!Files.isDirectory(directory.resolve("tests/draft2020-12"))) {
            String message = "the JSON Schema Test Suite is not at " + directory + ": put its tests/draft2020-12 "
                    + "there, or name its folder with -D" + PROPERTY + " or " + VARIABLE;
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                Assertions.fail(message + " (CI must run the suite, not skip it)");
            }
            Assumptions.abort(message);
        }
        return directory;
    }

    private static Path repositoryRoot() {
        Path start = Path.of("").toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(".ci/run"))) {
                return dir;
            }
        }
        return start;
    }
}
