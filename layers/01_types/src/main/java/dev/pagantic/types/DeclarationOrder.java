package dev.pagantic.types;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.github.victools.jsonschema.generator.MemberScope;
import java.lang.reflect.Member;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Orders properties as the mapper writes them: the names of {@code @JsonPropertyOrder} first, in its order; then a
 * record's components in declaration order (creator properties come first in Jackson 3); then the rest
 * alphabetically (Jackson 3's default) or in declaration order. The order matters beyond looks: a grammar derived
 * from the schema makes the model write properties in this order, so a record that puts its reasoning before its
 * answer gets the reasoning generated first.
 */
final class DeclarationOrder implements Comparator<MemberScope<?, ?>> {

    private final boolean creatorsFirst;
    private final boolean alphabetical;

    DeclarationOrder(JsonMapper mapper) {
        this.creatorsFirst = mapper.isEnabled(MapperFeature.SORT_CREATOR_PROPERTIES_FIRST);
        this.alphabetical = mapper.isEnabled(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY);
    }

    @Override
    public int compare(MemberScope<?, ?> first, MemberScope<?, ?> second) {
        int order = Integer.compare(annotatedIndex(first), annotatedIndex(second));
        if (order == 0 && creatorsFirst) {
            order = Integer.compare(componentIndex(first), componentIndex(second));
        }
        if (order == 0 && alphabetical) {
            order = first.getSchemaPropertyName().compareTo(second.getSchemaPropertyName());
        }
        return order != 0 ? order : Integer.compare(fieldIndex(first), fieldIndex(second));
    }

    private static int annotatedIndex(MemberScope<?, ?> member) {
        JsonPropertyOrder order = member.getDeclaringType().getErasedType().getAnnotation(JsonPropertyOrder.class);
        if (order == null) {
            return Integer.MAX_VALUE;
        }
        List<String> names = Arrays.asList(order.value());
        int index = names.indexOf(member.getSchemaPropertyName());
        return index < 0 ? Integer.MAX_VALUE : index;
    }

    private static int componentIndex(MemberScope<?, ?> member) {
        Member raw = member.getRawMember();
        if (raw.getDeclaringClass().isRecord()) {
            RecordComponent[] components = raw.getDeclaringClass().getRecordComponents();
            for (int i = 0; i < components.length; i++) {
                if (components[i].getName().equals(raw.getName())) {
                    return i;
                }
            }
        }
        return Integer.MAX_VALUE;
    }

    private static int fieldIndex(MemberScope<?, ?> member) {
        Member raw = member.getRawMember();
        int index = Arrays.asList(raw.getDeclaringClass().getDeclaredFields()).indexOf(raw);
        return index < 0 ? Integer.MAX_VALUE : index;
    }
}
