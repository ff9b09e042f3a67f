package dev.pagantic.adapter.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The metadata the configuration processor writes, which IDEs read to complete and document the properties. */
class ConfigurationMetadataTest {

    @Test
    void everyPropertyIsDescribedForIdeCompletionWithItsTypeAndDefault() throws IOException {
        Map<String, JsonNode> properties = new HashMap<>();
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("metadata written by spring-boot-configuration-processor").isNotNull();
            JsonMapper.builder().build().readTree(in).get("properties")
                    .forEach(property -> properties.put(property.get("name").asString(), property));
        }

        assertThat(properties).containsKeys("pagantic.engine.kind", "pagantic.engine.fail-fast",
                "pagantic.engine.llamacpp.model-path", "pagantic.engine.llamacpp.context-size",
                "pagantic.engine.llamacpp.gpu-layers", "pagantic.engine.openai.base-url",
                "pagantic.engine.openai.api-key", "pagantic.engine.openai.model", "pagantic.engine.routing.strategy",
                "pagantic.engine.routing.replicas", "pagantic.system-prompt", "pagantic.max-tokens",
                "pagantic.max-tool-iterations", "pagantic.store.kind", "pagantic.store.file.directory",
                "pagantic.store.jdbc.create-schema", "pagantic.sessions.ttl", "pagantic.tools.enabled");
        JsonNode modelPath = properties.get("pagantic.engine.llamacpp.model-path");
        assertThat(modelPath.get("type").asString()).isEqualTo("java.lang.String");
        assertThat(modelPath.get("description").asString()).startsWith("The GGUF model file");
        assertThat(properties.get("pagantic.engine.llamacpp.context-size").get("defaultValue").asInt())
                .isEqualTo(2048);
        assertThat(properties.get("pagantic.max-tokens").get("defaultValue").asInt()).isEqualTo(2048);
        assertThat(properties.values()).allSatisfy(property ->
                assertThat(property.path("description").asString("")).as(property.get("name").asString())
                        .isNotBlank());
    }
}
