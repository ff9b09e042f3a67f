package dev.pagantic.constraint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Properties of {@link EnumNormalizer} over random spellings of enum values, seeded (a failure names its seed), for
 * an enum declared plainly and one reached through {@code $ref} and a nullable {@code anyOf}, as Pydantic writes it.
 */
class EnumNormalizerPropertiesTest {

    private static final long SEED = 4_242L;
    private static final List<String> COLOURS = List.of("red", "Green", "dark_blue");
    private static final Schema PALETTE = Schema.object()
            .required("colours", Schema.arrayOf(Schema.object()
                    .required("colour", Schema.enumOf(COLOURS.toArray(String[]::new)))
                    .required("weight", Schema.number())
                    .build()))
            .build();
    private static final Schema REFERENCED = Schema.fromJsonSchema(Map.of(
            "$defs", Map.of("Colour", Map.of("enum", COLOURS)),
            "type", "object",
            "properties", Map.of("colours", Map.of("type", "array", "items", Map.of("type", "object",
                    "properties", Map.of("colour", Map.of("anyOf", List.of(Map.of("$ref", "#/$defs/Colour"),
                            Map.of("type", "null"))), "weight", Map.of("type", "number")))))));

    record Entry(String canonical, String spelling, String weight) {
    }

    @Test
    void everySpellingBecomesCanonicalAndEverythingElseIsKept() {
        for (Schema schema : List.of(PALETTE, REFERENCED)) {
            for (int i = 0; i < 200; i++) {
                List<Entry> entries = entries(new Random(SEED + i));
                String json = document(entries, Entry::spelling);

                EnumNormalization result = EnumNormalizer.normalize(json, schema);

                assertThat(result.json()).as("seed %d: %s", SEED + i, json)
                        .isEqualTo(document(entries, Entry::canonical));
                assertThat(EnumNormalizer.normalize(result.json(), schema).json()).isSameAs(result.json());
            }
        }
    }

    private static String document(List<Entry> entries, Function<Entry, String> colour) {
        return entries.stream()
                .map(entry -> "{\"colour\": \"" + colour.apply(entry) + "\", \"weight\": " + entry.weight() + "}")
                .collect(Collectors.joining(", ", "{\"colours\": [", "]}"));
    }

    private static List<Entry> entries(Random random) {
        List<Entry> entries = new ArrayList<>();
        for (int i = 0, n = random.nextInt(7); i < n; i++) {
            String canonical = COLOURS.get(random.nextInt(COLOURS.size()));
            String before = List.of("", " ", "  ", "\\t").get(random.nextInt(4));
            String after = List.of("", " ").get(random.nextInt(2));
            String weight = List.of("1.10", "1e2", "-0.5E-3", "12345678901234567890", "0").get(random.nextInt(5));
            entries.add(new Entry(canonical, before + recase(canonical, random) + after, weight));
        }
        return entries;
    }

    private static String recase(String value, Random random) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < value.length(); i++) {
            String c = String.valueOf(value.charAt(i));
            out.append(random.nextBoolean() ? c.toUpperCase(Locale.ROOT) : c.toLowerCase(Locale.ROOT));
        }
        return out.toString();
    }
}
