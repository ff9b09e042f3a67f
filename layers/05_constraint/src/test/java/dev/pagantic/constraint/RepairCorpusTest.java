package dev.pagantic.constraint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The golden corpus ({@code repair-corpus/cases.jsonl}): malformed model outputs, each with its byte-exact repair or
 * the failure it must produce. Cases with a {@code source} are real outputs of the models in {@code shared/models},
 * captured through java-llama.cpp; see {@code repair-corpus/README.md}.
 */
class RepairCorpusTest {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();
    private static final List<String> SHAPES = List.of("code_fence", "surrounding_prose", "truncated", "trailing_comma",
            "single_quotes", "unquoted_keys", "unescaped_quotes", "raw_newline", "python_literals", "bom", "think",
            "unrepairable");

    record Case(String name, String shape, String input, JsonNode node) {
        @Override
        public String toString() {
            return shape + ": " + name;
        }
    }

    static List<Case> cases() throws IOException {
        List<Case> cases = new ArrayList<>();
        try (InputStream in = RepairCorpusTest.class.getResourceAsStream("/repair-corpus/cases.jsonl")) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            for (String line : text.split("\n")) {
                if (!line.isBlank()) {
                    JsonNode node = MAPPER.readTree(line);
                    cases.add(new Case(node.get("name").asString(), node.get("shape").asString(),
                            node.get("input").asString(), node));
                }
            }
        }
        return cases;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void eachCaseRepairsToItsExpectedOutputOrFailsAsExpected(Case corpusCase) {
        JsonNode node = corpusCase.node();
        if (node.has("expected")) {
            RepairResult result = JsonRepair.standard().repair(corpusCase.input());
            assertThat(result.json()).isEqualTo(node.get("expected").asString());
            List<String> kinds = new ArrayList<>();
            node.get("fixes").forEach(kind -> kinds.add(kind.asString()));
            assertThat(result.kinds()).extracting(Enum::name).containsExactlyElementsOf(kinds);
            assertThat(JsonRepair.isValidJson(result.json())).isTrue();
        } else {
            assertThatThrownBy(() -> JsonRepair.standard().repair(corpusCase.input()))
                    .isInstanceOfSatisfying(PaganticException.class, error -> {
                        assertThat(error.code()).isEqualTo(ErrorCode.valueOf(node.get("error").asString()));
                        assertThat(error.details()).containsEntry("offset", node.get("error_offset").asInt())
                                .containsKeys("line", "column", "reason");
                    });
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void repairingARepairedCaseChangesNothing(Case corpusCase) {
        if (corpusCase.node().has("expected")) {
            String expected = corpusCase.node().get("expected").asString();
            RepairResult again = JsonRepair.standard().repair(expected);
            assertThat(again.json()).isSameAs(expected);
            assertThat(again.repaired()).isFalse();
        }
    }

    @Test
    void theCorpusHasAtLeastSixtyCasesAndThreeOfEveryShape() throws IOException {
        List<Case> cases = cases();
        Map<String, Long> perShape = cases.stream()
                .collect(Collectors.groupingBy(Case::shape, Collectors.counting()));

        assertThat(cases).hasSizeGreaterThanOrEqualTo(60);
        assertThat(perShape.keySet()).containsExactlyInAnyOrderElementsOf(SHAPES);
        assertThat(perShape.values()).allSatisfy(count -> assertThat(count).isGreaterThanOrEqualTo(3));
        assertThat(cases).extracting(Case::name).doesNotHaveDuplicates();
    }

    @Test
    void atLeastTenCasesAreRealModelOutputsWithTheirGenerationParameters() throws IOException {
        List<JsonNode> captured = cases().stream().map(Case::node).filter(node -> node.has("source")).toList();

        assertThat(captured).hasSizeGreaterThanOrEqualTo(10);
        assertThat(captured).allSatisfy(node -> {
            JsonNode source = node.get("source");
            assertThat(source.get("model").asString()).isIn("stories260K.gguf", "llama-2-tiny-random.gguf");
            assertThat(source.get("binding").asString()).isEqualTo("de.kherud:llama:4.2.0");
            assertThat(source.has("seed") && source.has("temperature") && source.has("n_predict")
                    && source.has("prompt") && source.has("grammar")).isTrue();
        });
        assertThat(captured).extracting(node -> node.get("source").get("model").asString())
                .contains("stories260K.gguf", "llama-2-tiny-random.gguf");
    }
}
