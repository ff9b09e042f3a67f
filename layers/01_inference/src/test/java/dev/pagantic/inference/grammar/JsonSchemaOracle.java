package dev.pagantic.inference.grammar;

import com.networknt.schema.Error;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.pagantic.core.Schema;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Test support: what networknt's json-schema-validator (draft 2020-12, formats asserted, as the constraint layer
 * validates) says of a document, given a {@link Schema}'s {@link Schema#toJsonSchema() JSON Schema document}. Documents are read strictly by Jackson (trailing tokens
 * refused, decimals as {@link java.math.BigDecimal} so that no number overflows to infinity); a document Jackson cannot
 * read is rejected with that as its one violation.
 */
final class JsonSchemaOracle {

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(
            SpecificationVersion.DRAFT_2020_12, builder -> builder.schemaRegistryConfig(
                    com.networknt.schema.SchemaRegistryConfig.builder().formatAssertionsEnabled(true).build()));

    private final com.networknt.schema.Schema validator;
    private final String document;

    JsonSchemaOracle(Schema schema) {
        JsonNode node = MAPPER.valueToTree(schema.toJsonSchema());
        this.document = MAPPER.writeValueAsString(node);
        this.validator = REGISTRY.getSchema(node);
    }

    /** The violations of the document, empty when it validates. */
    List<String> violations(String json) {
        JsonNode instance;
        try {
            instance = MAPPER.readTree(json);
        } catch (JacksonException notJson) {
            return List.of("not JSON: " + notJson.getOriginalMessage());
        }
        if (instance == null || instance.isMissingNode()) {
            return List.of("not JSON: no value");
        }
        return validator.validate(instance).stream().map(Error::toString).toList();
    }

    boolean accepts(String json) {
        return violations(json).isEmpty();
    }

    /** The JSON Schema document validated against, for failure messages. */
    String document() {
        return document;
    }
}
