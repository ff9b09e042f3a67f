package dev.pagantic.bench;

import de.kherud.llama.InferenceParameters;
import de.kherud.llama.LlamaModel;
import de.kherud.llama.LlamaOutput;
import de.kherud.llama.ModelParameters;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.inference.grammar.GbnfGrammar;
import dev.pagantic.inference.grammar.GrammarCost;
import dev.pagantic.inference.grammar.SchemaGrammar;
import dev.pagantic.testkit.TestModels;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * A wall-clock harness for what a grammar costs llama.cpp before and while decoding, on stories260K.gguf through the
 * raw binding (java-llama.cpp, whose grammar set-up cannot be interrupted): the time to the first token and to the
 * eighth with a grammar, against the same prompt without one, for grammar families of growing size: enums as flat
 * alternatives and as the prefix-shared rules pagantic writes, nested repetitions, and a realistic schema. Next to
 * each, pagantic's cost estimate ({@link GrammarCost}) and whether the budget refuses it. The budget's limits come
 * from these figures. Run it with {@code mvn -pl bench -Pbench exec:exec
 * -Dbench.main=dev.pagantic.bench.GrammarSetupBench}; a case over about 20 s is not run (the size before it says
 * why).
 */
public final class GrammarSetupBench {

    private static final String PROMPT = "Once upon a time";
    private static final int THREADS = 2;
    private static final int RUNS = 3;

    private final PrintStream out;
    private final LlamaModel model;

    private GrammarSetupBench(PrintStream out, LlamaModel model) {
        this.out = out;
        this.model = model;
    }

    /** Runs every family; prints one line per grammar. */
    public static void main(String[] args) {
        int status = 0;
        try (LlamaModel model = new LlamaModel(new ModelParameters()
                .setModel(TestModels.path(TestModels.STORIES).toString()).setCtxSize(512).setThreads(THREADS)
                .setThreadsBatch(THREADS).setParallel(1).setSeed(42).disableLog())) {
            new GrammarSetupBench(System.out, model).run(args.length > 0 ? args[0] : "all");
        } catch (RuntimeException e) {
            e.printStackTrace();
            status = 1;
        }
        System.exit(status); // a loaded llama.cpp model keeps the JVM alive
    }

    private void run(String family) {
        out.printf(Locale.ROOT, "%-44s %9s %9s %9s %9s %10s %10s  %s%n", "grammar", "chars", "elements", "entry",
                "fan-out", "1st tok ms", "8 tok ms", "budget");
        double baseline = measure(null, 1);
        double baseline8 = measure(null, 8);
        out.printf(Locale.ROOT, "%-44s %9s %9s %9s %9s %10.1f %10.1f%n", "(no grammar)", "", "", "", "", baseline,
                baseline8);
        Map<String, String> grammars = new LinkedHashMap<>();
        if (family.equals("all") || family.equals("enum")) {
            for (int n : new int[] {100, 1_000, 2_000, 4_000, 5_000, 10_000}) {
                grammars.put("enum of " + n + " as flat alternatives", flatEnum(words(n)));
            }
            for (int n : new int[] {1_000, 5_000, 10_000, 20_000, 50_000, 100_000}) {
                grammars.put("enum of " + n + " as prefix-shared rules", sharedEnum(words(n)));
            }
        }
        if (family.equals("all") || family.equals("nested")) {
            for (int k : new int[] {5, 10, 20, 40, 60, 80}) {
                grammars.put("(\"a\"{0," + k + "}){0," + k + "}", "root ::= (\"a\"{0," + k + "}){0," + k + "}");
            }
            grammars.put("(\"a\"{0,1000}){0,1000}", "root ::= (\"a\"{0,1000}){0,1000}");
        }
        if (family.equals("all") || family.equals("size")) {
            for (int rules : new int[] {25, 125, 500}) {
                StringBuilder text = new StringBuilder("root ::= \"Once\"");
                for (int i = 0; i < rules; i++) {
                    text.append(" r").append(i);
                }
                for (int i = 0; i < rules; i++) {
                    text.append("\nr").append(i).append(" ::= [a-z ]{0,2000}");
                }
                grammars.put(rules + " rules of [a-z ]{0,2000}", text.toString());
            }
            grammars.put("enum of 15000 as prefix-shared rules", sharedEnum(words(15_000)));
        }
        if (family.equals("all") || family.equals("schema")) {
            grammars.put("a Pydantic-shaped invoice schema", SchemaGrammar.of(invoice()).grammar().text());
            grammars.put("string of 2000 characters", "root ::= \"\\\"\" [a-z ]{0,2000} \"\\\"\"");
        }
        grammars.forEach(this::report);
    }

    private void report(String name, String text) {
        String budget;
        GrammarCost cost = null;
        try {
            cost = GbnfGrammar.parse(text).cost();
            budget = "within";
        } catch (PaganticException refused) {
            budget = "refused: " + refused.details().get("budget") + " " + refused.details().get("estimate");
        }
        boolean hopeless = text.length() > 2_000_000 || name.contains("{0,1000}")
                || name.contains("flat") && text.length() > 150_000;
        String first = hopeless ? "skipped" : String.format(Locale.ROOT, "%.1f", measure(text, 1));
        String eight = hopeless ? "skipped" : String.format(Locale.ROOT, "%.1f", measure(text, 8));
        out.printf(Locale.ROOT, "%-44s %9d %9s %9s %9s %10s %10s  %s%n", name, text.length(),
                cost == null ? "" : cost.elements(), cost == null ? "" : cost.entryWidth(),
                cost == null ? "" : cost.fanOut(), first, eight, budget);
    }

    /** The median over {@link #RUNS} of the milliseconds to generate {@code tokens} tokens. */
    private double measure(String grammar, int tokens) {
        List<Double> times = new ArrayList<>();
        for (int run = 0; run < RUNS; run++) {
            InferenceParameters parameters = new InferenceParameters(PROMPT).setNPredict(tokens).setTemperature(0)
                    .setSeed(42);
            if (grammar != null) {
                parameters.setGrammar(grammar);
            }
            long start = System.nanoTime();
            for (LlamaOutput ignored : model.generate(parameters)) {
                // drain
            }
            times.add((System.nanoTime() - start) / 1e6);
        }
        times.sort(null);
        return times.get(times.size() / 2);
    }

    /** n distinct lower-case words, as an enum's values tend to be. */
    private static List<String> words(int n) {
        Random random = new Random(n);
        java.util.Set<String> words = new java.util.LinkedHashSet<>();
        while (words.size() < n) {
            int length = 4 + random.nextInt(8);
            StringBuilder word = new StringBuilder();
            for (int i = 0; i < length; i++) {
                word.append((char) ('a' + random.nextInt(26)));
            }
            words.add(word.toString());
        }
        return List.copyOf(words);
    }

    private static String flatEnum(List<String> values) {
        StringBuilder grammar = new StringBuilder("root ::= ");
        for (int i = 0; i < values.size(); i++) {
            grammar.append(i == 0 ? "" : " | ").append("\"\\\"").append(values.get(i)).append("\\\"\"");
        }
        return grammar.toString();
    }

    /**
     * The enum as pagantic writes it (a trie: one rule per branching prefix), built here rather than through
     * {@link SchemaGrammar} so that enums over the budget can be measured too.
     */
    private static String sharedEnum(List<String> values) {
        Map<String, Object> trie = new java.util.TreeMap<>();
        for (String value : values) {
            Map<String, Object> node = trie;
            for (char c : ("\"" + value + "\"").toCharArray()) {
                @SuppressWarnings("unchecked")
                Map<String, Object> child = (Map<String, Object>) node.computeIfAbsent(String.valueOf(c),
                        k -> new java.util.TreeMap<String, Object>());
                node = child;
            }
            node.put("", Map.of());
        }
        StringBuilder rules = new StringBuilder();
        String root = trieRule(trie, rules, new int[] {0});
        return "root ::= " + root + "\n" + rules;
    }

    @SuppressWarnings("unchecked")
    private static String trieRule(Map<String, Object> node, StringBuilder rules, int[] counter) {
        List<String> alternatives = new ArrayList<>();
        for (Map.Entry<String, Object> child : node.entrySet()) {
            if (child.getKey().isEmpty()) {
                alternatives.add("\"\"");
                continue;
            }
            StringBuilder run = new StringBuilder(child.getKey());
            Map<String, Object> next = (Map<String, Object>) child.getValue();
            while (next.size() == 1 && !next.containsKey("")) {
                Map.Entry<String, Object> only = next.entrySet().iterator().next();
                run.append(only.getKey());
                next = (Map<String, Object>) only.getValue();
            }
            String literal = "\"" + run.toString().replace("\"", "\\\"") + "\"";
            if (next.size() == 1) { // only the end marker
                alternatives.add(literal);
            } else {
                String name = "t" + counter[0]++;
                String expression = trieRule(next, rules, counter);
                rules.append(name).append(" ::= ").append(expression).append('\n');
                alternatives.add(literal + " " + name);
            }
        }
        return String.join(" | ", alternatives);
    }

    /** A Pydantic-shaped schema: nullable fields, $defs, an enum, bounds, a pattern and a date. */
    private static Schema invoice() {
        Map<String, Object> line = Map.of("type", "object", "properties", Map.of(
                "sku", Map.of("type", "string", "pattern", "^[A-Z]{3}-[0-9]{4}$"),
                "quantity", Map.of("type", "integer", "minimum", 1, "maximum", 999),
                "price", Map.of("type", "number")), "required", List.of("sku", "quantity", "price"));
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("$defs", Map.of("Line", line));
        document.put("type", "object");
        document.put("properties", Map.of(
                "number", Map.of("type", "string", "minLength", 1, "maxLength", 20),
                "issued", Map.of("type", "string", "format", "date"),
                "status", Map.of("enum", List.of("draft", "sent", "paid", "void")),
                "customer", Map.of("anyOf", List.of(Map.of("type", "string", "maxLength", 60),
                        Map.of("type", "null"))),
                "lines", Map.of("type", "array", "items", Map.of("$ref", "#/$defs/Line"), "minItems", 1,
                        "maxItems", 50),
                "notes", Map.of("type", List.of("string", "null"))));
        document.put("required", List.of("number", "issued", "status", "lines"));
        document.put("additionalProperties", false);
        return Schema.fromJsonSchema(document);
    }
}
