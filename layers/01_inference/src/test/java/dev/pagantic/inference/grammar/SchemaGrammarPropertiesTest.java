package dev.pagantic.inference.grammar;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Schema;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.Tuple.Tuple2;
import net.jqwik.api.statistics.Statistics;

/**
 * The grammar derived from a schema and the schema's JSON Schema document (checked by networknt) agree, on generated
 * schemas: (a) the grammar accepts every conforming instance, canonically written and with whitespace between its
 * tokens; (b) every sentence sampled from the grammar validates against the schema; (c) instances mutated to violate
 * the schema are rejected by both. Generators: {@link SchemaArbitraries}; sampler: {@link GrammarSampler}; mutations:
 * {@link SchemaMutations}.
 */
class SchemaGrammarPropertiesTest {

    private static final int SAMPLES_PER_SCHEMA = 5;

    @Provide
    Arbitrary<Schema> schemas() {
        return SchemaArbitraries.schemas();
    }

    @Provide
    Arbitrary<Tuple2<Schema, Object>> schemasWithInstances() {
        return SchemaArbitraries.schemas()
                .flatMap(schema -> SchemaArbitraries.instances(schema).map(instance -> Tuple.of(schema, instance)));
    }

    /** (a) */
    @Property(tries = 300)
    void theGrammarOfASchemaAcceptsEveryInstanceOfIt(
            @ForAll("schemasWithInstances") Tuple2<Schema, Object> example, @ForAll long whitespaceSeed) {
        Schema schema = example.get1();
        GbnfGrammar grammar = GbnfGrammar.fromSchema(schema);
        JsonSchemaOracle oracle = new JsonSchemaOracle(schema);
        String canonical = CanonicalJson.write(example.get2());
        String spaced = CanonicalJson.write(example.get2(), new Random(whitespaceSeed));

        assertThat(oracle.violations(canonical)).as("the generated instance is valid: %s", context(grammar, oracle,
                canonical)).isEmpty();
        assertThat(grammar.match(canonical).accepted()).as("canonical instance rejected (%s): %s",
                grammar.match(canonical).reason(), context(grammar, oracle, canonical)).isTrue();
        assertThat(oracle.violations(spaced)).as("whitespace keeps it valid: %s", context(grammar, oracle, spaced))
                .isEmpty();
        assertThat(grammar.match(spaced).accepted()).as("instance with whitespace rejected (%s): %s",
                grammar.match(spaced).reason(), context(grammar, oracle, spaced)).isTrue();
    }

    /** (b) */
    @Property(tries = 300)
    void everySentenceSampledFromTheGrammarOfASchemaValidatesAgainstIt(
            @ForAll("schemas") Schema schema, @ForAll long samplingSeed) {
        GbnfGrammar grammar = GbnfGrammar.fromSchema(schema);
        JsonSchemaOracle oracle = new JsonSchemaOracle(schema);
        GrammarSampler sampler = new GrammarSampler(grammar);
        Random random = new Random(samplingSeed);
        for (int i = 0; i < SAMPLES_PER_SCHEMA; i++) {
            String sentence = sampler.sample(random, random.nextInt(100));

            assertThat(grammar.match(sentence).accepted()).as("the grammar accepts its own sample (%s): %s",
                    grammar.match(sentence).reason(), context(grammar, oracle, sentence)).isTrue();
            assertThat(oracle.violations(sentence)).as("sample violates the schema: %s",
                    context(grammar, oracle, sentence)).isEmpty();
        }
    }

    /** (c) */
    @Property(tries = 300)
    void everyMutationThatViolatesASchemaIsRejectedByBothItsGrammarAndItsJsonSchema(
            @ForAll("schemasWithInstances") Tuple2<Schema, Object> example) {
        Schema schema = example.get1();
        GbnfGrammar grammar = GbnfGrammar.fromSchema(schema);
        JsonSchemaOracle oracle = new JsonSchemaOracle(schema);
        List<SchemaMutations.Mutant> mutants = SchemaMutations.all(schema, example.get2());
        for (SchemaMutations.Mutant mutant : mutants) {
            Statistics.label("mutation").collect(mutant.kind());

            assertThat(grammar.accepts(mutant.json())).as("grammar accepts %s: %s", mutant.description(),
                    context(grammar, oracle, mutant.json())).isFalse();
            assertThat(oracle.violations(mutant.json())).as("JSON Schema accepts %s: %s", mutant.description(),
                    context(grammar, oracle, mutant.json())).isNotEmpty();
        }
        Statistics.label("mutation").coverage(coverage -> {
            for (SchemaMutations.Kind kind : SchemaMutations.Kind.values()) {
                coverage.check(kind).count(count -> count > 0);
            }
        });
    }

    private static String context(GbnfGrammar grammar, JsonSchemaOracle oracle, String json) {
        return "\ndocument: " + json + "\nschema: " + oracle.document() + "\ngrammar:\n" + grammar.text();
    }
}
