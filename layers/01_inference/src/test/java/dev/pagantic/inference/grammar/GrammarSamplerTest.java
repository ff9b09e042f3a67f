package dev.pagantic.inference.grammar;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Schema;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The test-support sampler yields sentences of the grammar, terminates on recursive grammars, and honours classes. */
class GrammarSamplerTest {

    @Test
    void samplesOfARecursiveGrammarAreSentencesAndTheWalkEndsPastItsBudget() {
        GbnfGrammar nested = GbnfGrammar.parse("""
                root ::= "(" root ")" | "[" root root "]" | tail
                tail ::= "y" tail | "z"
                """);
        GrammarSampler sampler = new GrammarSampler(nested);
        Random random = new Random(7);

        assertThat(sampler.sample(random, 0)).as("shortest sentence once the budget is spent").isEqualTo("z");
        for (int i = 0; i < 200; i++) {
            String sentence = sampler.sample(random, random.nextInt(50));
            assertThat(nested.accepts(sentence)).as(sentence).isTrue();
        }
    }

    @Test
    void terminalsYieldCodePointsTheirClassesAllowAndNeverALoneSurrogate() {
        GbnfGrammar classes = GbnfGrammar.parse(
                "root ::= [^a-z\"\\\\\\x00-\\x1F] [a-c] [\\U0001F600-\\U0001F64F] . [^\\x20-\\x7E]\n");
        GrammarSampler sampler = new GrammarSampler(classes);
        Random random = new Random(11);

        for (int i = 0; i < 200; i++) {
            String sentence = sampler.sample(random, 10);
            int[] codePoints = sentence.codePoints().toArray();
            assertThat(classes.accepts(sentence)).as(sentence).isTrue();
            assertThat(codePoints).hasSize(5);
            assertThat(codePoints[1]).isBetween((int) 'a', (int) 'c');
            assertThat(codePoints[2]).isBetween(0x1F600, 0x1F64F);
            long surrogates = sentence.chars()
                    .filter(c -> c >= Character.MIN_SURROGATE && c <= Character.MAX_SURROGATE).count();
            long supplementary = sentence.codePoints().filter(c -> c > 0xFFFF).count();
            assertThat(surrogates).as("surrogates only in pairs").isEqualTo(2 * supplementary);
        }
    }

    @Test
    void everyRuleOfAGeneratedGrammarHasATerminatingAlternative() {
        Schema any = Schema.any();
        Schema schema = Schema.object()
                .required("items", Schema.arrayOf(Schema.object().optional("x", Schema.integer()).build())
                        .withItemCount(1, 3))
                .optional("payload", any)
                .optional("label", Schema.string().withMaxLength(4))
                .build();
        GbnfGrammar grammar = GbnfGrammar.fromSchema(schema);

        assertThat(GrammarSampler.terminatingAlternatives(grammar.compiled().rules())).doesNotContain(-1);
    }
}
