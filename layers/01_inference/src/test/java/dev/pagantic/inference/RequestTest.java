package dev.pagantic.inference;

import static dev.pagantic.inference.Failures.assertConfigInvalid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.grammar.GbnfGrammar;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RequestTest {

    private static final Schema CITY = Schema.object().required("city", Schema.string()).build();
    private static final ToolDefinition WEATHER = ToolDefinition.of("get_weather", "weather for a city", CITY);
    private static final Schema SENTIMENT = Schema.object()
            .required("sentiment", Schema.enumOf("positive", "negative", "neutral"))
            .required("confidence", Schema.number())
            .build();

    private static Request.Builder hello() {
        return Request.builder().addMessage(Message.user("hello"));
    }

    private static Request everythingSet() {
        return Request.builder()
                .addMessage(Message.system("Be brief."))
                .addMessage(Message.user("Weather in Paris?"))
                .addTool(WEATHER)
                .schema(SENTIMENT)
                .grammar("root ::= \"yes\" | \"no\"")
                .maxTokens(256)
                .temperature(0.7)
                .topP(0.9)
                .seed(42)
                .addStop("</answer>")
                .option("mirostat", 2)
                .option("logit_bias", Map.of("15043", -100))
                .build();
    }

    @Nested
    class Defaults {

        @Test
        void singleMessageRequestUsesEngineDefaultsForEverythingElse() {
            Request request = Request.of("hello");

            assertThat(request.messages()).containsExactly(Message.user("hello"));
            assertThat(request.tools()).isEmpty();
            assertThat(request.schema()).isEmpty();
            assertThat(request.grammar()).isEmpty();
            assertThat(request.hasGrammar()).isFalse();
            assertThat(request.settings()).isEqualTo(InferenceSettings.DEFAULTS);
            assertThat(request.settings().maxTokens()).isZero();
            assertThat(request.settings().temperature()).isEmpty();
            assertThat(request.settings().topP()).isEmpty();
            assertThat(request.settings().seed()).isEmpty();
            assertThat(request.settings().stop()).isEmpty();
            assertThat(request.settings().options()).isEmpty();
        }

        @Test
        void everyFieldIsKeptAsSet() {
            Request request = everythingSet();

            assertThat(request.messages()).extracting(Message::content).containsExactly("Be brief.",
                    "Weather in Paris?");
            assertThat(request.tools()).containsExactly(WEATHER);
            assertThat(request.schema()).contains(SENTIMENT);
            assertThat(request.hasGrammar()).isTrue();
            assertThat(request.settings().maxTokens()).isEqualTo(256);
            assertThat(request.settings().temperature()).hasValue(0.7);
            assertThat(request.settings().topP()).hasValue(0.9);
            assertThat(request.settings().seed()).hasValue(42L);
            assertThat(request.settings().stop()).containsExactly("</answer>");
            assertThat(request.settings().options()).containsEntry("mirostat", 2)
                    .containsEntry("logit_bias", Map.of("15043", -100));
        }

        @Test
        void unsetTemperatureAndGreedyTemperatureAreDistinguishable() {
            Request unset = hello().build();
            Request greedy = hello().temperature(0.0).build();

            assertThat(unset.settings().temperature()).isEmpty();
            assertThat(greedy.settings().temperature()).hasValue(0.0);
            assertThat(greedy).isNotEqualTo(unset);
        }

        @Test
        void defaultTemperatureClearsAnEarlierTemperature() {
            Request request = hello().temperature(0.2).defaultTemperature().build();

            assertThat(request.settings().temperature()).isEqualTo(OptionalDouble.empty());
        }

        @Test
        void nullSchemaClearsTheSchema() {
            assertThat(hello().schema(SENTIMENT).schema(null).build().schema()).isEmpty();
        }

        @Test
        void messagesAndToolsCanBeReplacedWholesale() {
            Request request = hello().addTool(WEATHER)
                    .messages(List.of(Message.system("s"), Message.user("u")))
                    .tools(List.of())
                    .build();

            assertThat(request.messages()).containsExactly(Message.system("s"), Message.user("u"));
            assertThat(request.tools()).isEmpty();
        }
    }

    @Test
    void aMalformedGrammarIsRefusedBeforeAnyRequestExistsSoItNeverReachesAnEngine() {
        Request.Builder builder = Request.builder().addMessage(Message.user("hi"));

        assertThatThrownBy(() -> builder.grammar("root ::= [a-")).isInstanceOfSatisfying(PaganticException.class, e -> {
            assertThat(e.code()).isEqualTo(dev.pagantic.core.ErrorCode.CONFIG_GRAMMAR_INVALID);
            assertThat(e.details()).containsEntry("line", 1).containsEntry("column", 13);
        });
    }

    @Test
    void aWellFormedGrammarIsKeptAsGiven() {
        String grammar = "root ::= \"yes\" | \"no\"";

        Request request = Request.builder().addMessage(Message.user("hi")).grammar(grammar).build();

        assertThat(request.grammar()).map(GbnfGrammar::text).contains(grammar);
        assertThat(request.grammar()).contains(GbnfGrammar.parse(grammar));
    }

    @Nested
    class Validation {

        @Test
        void requestWithoutMessagesIsRejected() {
            PaganticException failure = assertConfigInvalid(() -> Request.builder().build());

            assertThat(failure.description()).contains("at least one message");
        }

        @Test
        void negativeMaxTokensIsRejected() {
            assertConfigInvalid(() -> hello().maxTokens(-1).build());
        }

        @ParameterizedTest
        @ValueSource(doubles = {-0.1, -1, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY})
        void temperatureBelowZeroOrNotFiniteIsRejected(double temperature) {
            assertConfigInvalid(() -> hello().temperature(temperature).build());
        }

        @ParameterizedTest
        @ValueSource(doubles = {0.0, 0.7, 2.0})
        void nonNegativeTemperatureIsAccepted(double temperature) {
            assertThat(hello().temperature(temperature).build().settings().temperature()).hasValue(temperature);
        }

        @ParameterizedTest
        @ValueSource(doubles = {-0.01, 1.01, Double.NaN, Double.POSITIVE_INFINITY})
        void topPOutsideZeroToOneIsRejected(double topP) {
            assertConfigInvalid(() -> hello().topP(topP).build());
        }

        @ParameterizedTest
        @ValueSource(doubles = {0.5, 1.0})
        void topPWithinZeroToOneIsAccepted(double topP) {
            assertThat(hello().topP(topP).build().settings().topP()).hasValue(topP);
        }

        @Test
        void aTopPOfZeroMeansTheEngineDefaultAsInTheSpecification() {
            assertThat(hello().topP(0.0).build().settings().topP()).isEmpty();
        }

        @Test
        void duplicateToolNamesAreRejected() {
            ToolDefinition sameName = ToolDefinition.of("get_weather", "another description", CITY);

            PaganticException failure = assertConfigInvalid(() -> hello().addTool(WEATHER).addTool(sameName).build());

            assertThat(failure.description()).contains("get_weather");
        }

        @Test
        void emptyStopStringIsRejected() {
            assertConfigInvalid(() -> hello().addStop("\n").addStop("").build());
        }

        @Test
        void optionThatIsNotAJsonValueIsRejected() {
            assertConfigInvalid(() -> hello().option("callback", new Object()).build());
        }

        @Test
        void nullsAreRefusedWhereAValueIsRequired() {
            assertConfigInvalid(() -> Request.builder().addMessage(null));
            assertConfigInvalid(() -> Request.builder().settings(null));
            assertConfigInvalid(() -> Request.builder().addStop(null));
        }
    }

    @Nested
    class Copies {

        @Test
        void toBuilderRoundTripsToAnEqualRequest() {
            Request request = everythingSet();

            assertThat(request.toBuilder().build()).isEqualTo(request);
            assertThat(Request.of("x").toBuilder().build()).isEqualTo(Request.of("x"));
        }

        @Test
        void changingADerivedBuilderLeavesTheOriginalAlone() {
            Request original = everythingSet();

            Request derived = original.toBuilder().addMessage(Message.assistant("ok")).temperature(0.0)
                    .option("extra", true).build();

            assertThat(original).isEqualTo(everythingSet());
            assertThat(derived.messages()).hasSize(3);
            assertThat(derived.settings().temperature()).hasValue(0.0);
            assertThat(derived.settings().options()).containsKey("extra");
        }

        @Test
        void reusingTheBuilderAfterBuildDoesNotChangeTheBuiltRequest() {
            Request.Builder builder = hello().addStop("###");
            Request first = builder.build();

            builder.addMessage(Message.assistant("hi")).addStop("END").option("k", 1);

            assertThat(first.messages()).hasSize(1);
            assertThat(first.settings().stop()).containsExactly("###");
            assertThat(first.settings().options()).isEmpty();
        }

        @Test
        void optionsAreDeepCopiedInOrderAndUnmodifiable() {
            List<Object> penalties = new ArrayList<>(List.of(1, 2));
            Map<String, Object> nested = new LinkedHashMap<>();
            nested.put("penalties", penalties);
            Request request = hello().option("z", 1).option("a", nested).option("nothing", null).build();

            penalties.add(3);
            nested.put("late", true);

            assertThat(request.settings().options().keySet()).containsExactly("z", "a", "nothing");
            assertThat(request.settings().options()).containsEntry("nothing", null);
            assertThat(request.settings().options().get("a")).isEqualTo(Map.of("penalties", List.of(1, 2)));
            assertThatThrownBy(() -> request.settings().options().put("x",
                    1)).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> ((Map<?, ?>) request.settings().options().get("a")).clear())
                    .isInstanceOf(UnsupportedOperationException.class);
        }

        @Test
        void listsAreUnmodifiable() {
            Request request = everythingSet();

            assertThatThrownBy(() -> request.messages().add(Message.user("x")))
                    .isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> request.tools().clear()).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> request.settings().stop().add("x"))
                    .isInstanceOf(UnsupportedOperationException.class);
        }
    }
}
