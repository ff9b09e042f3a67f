package dev.pagantic.tool;

import dev.pagantic.types.TypeSchemaGenerator;
import tools.jackson.databind.json.JsonMapper;

/** The layer's default JSON mapper: the one typed structured output uses, so that both read the same JSON form. */
final class Json {

    /**
     * Enums by {@code name()} (the derived schemas list what the mapper writes; Jackson 3 would otherwise use
     * {@code toString()}), unknown properties and nulls for primitives refused.
     */
    static final JsonMapper DEFAULT = TypeSchemaGenerator.defaultMapper();

    private Json() {
    }
}
