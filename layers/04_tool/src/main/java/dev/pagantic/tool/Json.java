package dev.pagantic.tool;

import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.cfg.EnumFeature;
import tools.jackson.databind.json.JsonMapper;

/** The layer's default JSON mapper. Jackson 3 mappers are immutable, so one shared instance is not mutable state. */
final class Json {

    /**
     * Enums by {@code name()} (the derived schemas list names; Jackson 3 would otherwise read and write
     * {@code toString()}), unknown properties and nulls for primitives refused.
     */
    static final JsonMapper DEFAULT = JsonMapper.builder()
            .disable(EnumFeature.READ_ENUMS_USING_TO_STRING)
            .disable(EnumFeature.WRITE_ENUMS_USING_TO_STRING)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .build();

    private Json() {
    }
}
