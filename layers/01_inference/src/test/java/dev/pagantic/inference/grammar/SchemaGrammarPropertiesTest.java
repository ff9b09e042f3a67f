package dev.pagantic.inference.grammar;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Schema;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The grammar derived from a schema and the schema's JSON Schema document (checked by networknt) agree, on random
 * schemas ({@link RandomSchemas}), each property over a few hundred seeded tries (a failure names its seed): (a) the
 * grammar accepts every conforming instance, compact and with whitespace between its tokens; (b) every sentence
 * sampled from the grammar validates against the schema when the grammar enforces the whole schema
 * ({@link SchemaGrammar#exact()}); (c) an instance that breaks the schema is rejected by the validator, and by the
 * grammar when it enforces the whole schema. Sampler: {@link GrammarSampler}.
 */
class SchemaGrammarPropertiesTest {

    private static final long SEED = 20_241_117L;
    private static final int TRIES = 300;
    private static final int SAMPLES_PER_SCHEMA = 5;

    private record Case(long seed, RandomSchemas.Node node, Schema schema, SchemaGrammar grammar,
                        JsonSchemaOracle oracle) {
        String context(String json) {
            return "\nseed: " + seed + "\ndocument: " + json + "\nschema: " + oracle.document() + "\ngrammar:\n"
                    + grammar.grammar().text();
        }
    }

    @SuppressWarnings("unchecked")
    private static Case generate(long seed) {
        RandomSchemas.Node node = RandomSchemas.schema(new Random(seed));
        Object document = node.document();
        Schema schema = Schema.fromJsonSchema(document instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of());
        return new Case(seed, node, schema, SchemaGrammar.of(schema), new JsonSchemaOracle(schema));
    }

    /** (a) */
    @Test
    void theGrammarOfASchemaAcceptsEveryInstanceOfIt() {
        for (int i = 0; i < TRIES; i++) {
            Case example = generate(SEED + i);
            Random random = new Random(SEED + i);
            Object instance = example.node().instance(random);
            String canonical = CanonicalJson.write(instance);
            String spaced = CanonicalJson.write(instance, random);

            assertThat(example.oracle().violations(canonical)).as("the generated instance is valid: %s",
                    example.context(canonical)).isEmpty();
            assertThat(example.grammar().grammar().match(canonical).accepted()).as("canonical instance rejected: %s",
                    example.context(canonical)).isTrue();
            assertThat(example.grammar().grammar().match(spaced).accepted()).as("instance with whitespace "
                    + "rejected: %s", example.context(spaced)).isTrue();
        }
    }

    /** (b) */
    @Test
    void everySentenceSampledFromTheGrammarOfASchemaValidatesAgainstItWhenTheGrammarIsExact() {
        int exact = 0;
        for (int i = 0; i < TRIES; i++) {
            Case example = generate(SEED + i);
            if (!example.grammar().exact()) {
                continue;
            }
            exact++;
            GrammarSampler sampler = new GrammarSampler(example.grammar().grammar());
            Random random = new Random(SEED + i);
            for (int s = 0; s < SAMPLES_PER_SCHEMA; s++) {
                String sentence = sampler.sample(random, random.nextInt(100));

                assertThat(example.grammar().grammar().accepts(sentence)).as("the grammar accepts its own "
                        + "sample: %s", example.context(sentence)).isTrue();
                assertThat(example.oracle().violations(sentence)).as("sample violates the schema: %s",
                        example.context(sentence)).isEmpty();
            }
        }
        assertThat(exact).as("schemas whose grammar is exact").isGreaterThan(TRIES / 3);
    }

    /** (c) */
    @Test
    void anInstanceThatBreaksTheSchemaIsRejectedByTheValidatorAndByAnExactGrammar() {
        int broken = 0;
        for (int i = 0; i < TRIES; i++) {
            Case example = generate(SEED + i);
            Optional<RandomSchemas.Broken> mutant = example.node().broken(new Random(SEED + i));
            if (mutant.isEmpty()) {
                continue;
            }
            broken++;
            String json = CanonicalJson.write(mutant.get().instance());

            assertThat(example.oracle().violations(json)).as("the validator accepts %s: %s", mutant.get().why(),
                    example.context(json)).isNotEmpty();
            if (example.grammar().exact()) {
                assertThat(example.grammar().grammar().accepts(json)).as("the exact grammar accepts %s: %s",
                        mutant.get().why(), example.context(json)).isFalse();
            }
        }
        assertThat(broken).as("schemas with a break to try").isGreaterThan(TRIES / 2);
    }
}
