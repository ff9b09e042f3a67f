package dev.pagantic.types;

import com.fasterxml.classmate.ResolvedType;
import com.github.victools.jsonschema.generator.CustomDefinition;
import com.github.victools.jsonschema.generator.CustomDefinitionProviderV2;
import com.github.victools.jsonschema.generator.SchemaGenerationContext;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Definitions where victools' defaults differ from the JSON Jackson writes and reads:
 * <ul>
 *   <li>an enum lists the values the mapper writes for its constants (by name, {@code @JsonProperty},
 *       {@code @JsonValue} or {@code toString()}, as the mapper is configured), any JSON values;</li>
 *   <li>{@code LocalTime} and {@code LocalDateTime} have no offset, and Jackson writes {@code LocalTime} and
 *       {@code OffsetTime} without seconds when they are zero: they match a pattern instead of the {@code time} and
 *       {@code date-time} formats, which require both;</li>
 *   <li>a {@code char} is a string of at most one character (an empty one fails conversion; {@code maxLength}
 *       alone keeps the schema within what every schema reader of pagantic accepts); a {@code byte[]} is a base64
 *       string;</li>
 *   <li>{@code OptionalInt}, {@code OptionalLong} and {@code OptionalDouble} are their number;</li>
 *   <li>an {@code int}, {@code short} or {@code byte} (boxed or not, and {@code OptionalInt}) is an integer within its
 *       range, so that a constrained decoder cannot write a number the type cannot hold (the grammar enforces integer
 *       bounds; without them such an answer would only fail at conversion, after validation passed it). A
 *       {@code long}'s range is left out: a model does not write 20-digit numbers by accident, and bounds beyond
 *       2<sup>53</sup> lose precision in JavaScript readers of the schema;</li>
 *   <li>a {@code Map} of {@code Object} values is an object with {@code additionalProperties: true}, said
 *       explicitly rather than left to the default, so that no reader mistakes it for a closed object.</li>
 * </ul>
 */
final class JavaTypeDefinitions implements CustomDefinitionProviderV2 {

    /** ISO-8601 local time as Jackson writes it: seconds and fractions only when not zero. */
    static final String LOCAL_TIME = "([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\\.[0-9]{1,9})?)?";
    static final String LOCAL_DATE = "[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])";
    static final String OFFSET = "(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])";
    static final String BASE64 = "^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$";

    private static final Map<Class<?>, String> PATTERNS = Map.of(
            LocalTime.class, "^" + LOCAL_TIME + "$",
            OffsetTime.class, "^" + LOCAL_TIME + OFFSET + "$",
            LocalDateTime.class, "^" + LOCAL_DATE + "T" + LOCAL_TIME + "$",
            byte[].class, BASE64);

    private static final Map<Class<?>, int[]> INTEGER_RANGES = Map.of(
            int.class, new int[] {Integer.MIN_VALUE, Integer.MAX_VALUE},
            Integer.class, new int[] {Integer.MIN_VALUE, Integer.MAX_VALUE},
            OptionalInt.class, new int[] {Integer.MIN_VALUE, Integer.MAX_VALUE},
            short.class, new int[] {Short.MIN_VALUE, Short.MAX_VALUE},
            Short.class, new int[] {Short.MIN_VALUE, Short.MAX_VALUE},
            byte.class, new int[] {Byte.MIN_VALUE, Byte.MAX_VALUE},
            Byte.class, new int[] {Byte.MIN_VALUE, Byte.MAX_VALUE});

    private final JsonMapper mapper;

    JavaTypeDefinitions(JsonMapper mapper) {
        this.mapper = mapper;
    }

    @Override
    public @Nullable CustomDefinition provideCustomSchemaDefinition(ResolvedType javaType,
                                                             SchemaGenerationContext context) {
        Class<?> type = javaType.getErasedType();
        ObjectNode schema = context.getGeneratorConfig().createObjectNode();
        if (type.isEnum()) {
            return enumDefinition(type, schema, context);
        }
        if (PATTERNS.containsKey(type)) {
            schema.put("type", "string").put("pattern", PATTERNS.get(type));
        } else if (type == char.class || type == Character.class) {
            schema.put("type", "string").put("maxLength", 1);
        } else if (INTEGER_RANGES.containsKey(type)) {
            int[] range = INTEGER_RANGES.get(type);
            schema.put("type", "integer").put("minimum", range[0]).put("maximum", range[1]);
        } else if (type == OptionalLong.class) {
            schema.put("type", "integer");
        } else if (type == OptionalDouble.class) {
            schema.put("type", "number");
        } else if (Map.class.isAssignableFrom(type) && isObject(javaType.typeParametersFor(Map.class))) {
            schema.put("type", "object").put("additionalProperties", true);
        } else {
            return null;
        }
        return new CustomDefinition(schema, CustomDefinition.DefinitionType.INLINE,
                CustomDefinition.AttributeInclusion.YES);
    }

    private CustomDefinition enumDefinition(Class<?> type, ObjectNode schema, SchemaGenerationContext context) {
        List<Object> values = new ArrayList<>();
        for (Object constant : type.getEnumConstants()) {
            values.add(mapper.convertValue(constant, Object.class));
        }
        ArrayNode types = context.getGeneratorConfig().createArrayNode();
        values.stream().map(JavaTypeDefinitions::jsonType).distinct().forEach(types::add);
        if (types.size() == 1) {
            schema.set("type", types.get(0));
        } else {
            schema.set("type", types);
        }
        ArrayNode enumNode = schema.putArray("enum");
        values.forEach(value -> enumNode.add(mapper.valueToTree(value)));
        return new CustomDefinition(schema, CustomDefinition.DefinitionType.STANDARD,
                CustomDefinition.AttributeInclusion.YES);
    }

    private static boolean isObject(List<ResolvedType> mapParameters) {
        return mapParameters.size() == 2 && mapParameters.get(1).getErasedType() == Object.class;
    }

    private static String jsonType(@Nullable Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof String) {
            return "string";
        }
        if (value instanceof Boolean) {
            return "boolean";
        }
        if (value instanceof Integer || value instanceof Long || value instanceof java.math.BigInteger) {
            return "integer";
        }
        return value instanceof Number ? "number" : "object";
    }
}
