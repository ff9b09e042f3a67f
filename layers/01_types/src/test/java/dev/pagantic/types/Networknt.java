package dev.pagantic.types;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/** The independent judge of these tests: networknt's draft 2020-12 validator, with formats asserted. */
final class Networknt {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
            builder -> builder.schemaRegistryConfig(SchemaRegistryConfig.builder().formatAssertionsEnabled(true)
                    .build()));

    private Networknt() {
    }

    /** The validator's messages for the JSON text against the schema document; empty when it conforms. */
    static List<String> errors(Map<String, Object> schema, String json) {
        return REGISTRY.getSchema(JSON.valueToTree(schema)).validate(json, InputFormat.JSON).stream()
                .map(Error::toString).toList();
    }
}
