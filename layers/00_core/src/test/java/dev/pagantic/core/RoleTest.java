package dev.pagantic.core;

import static dev.pagantic.core.Failures.assertConfigInvalid;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class RoleTest {

    @Test
    void wireNamesAreTheSpecificationsLowerCaseNames() {
        assertThat(Arrays.stream(Role.values()).map(Role::wireName))
                .containsExactly("system", "user", "assistant", "tool");
    }

    @ParameterizedTest
    @EnumSource(Role.class)
    void everyRoleRoundTripsThroughItsWireName(Role role) {
        assertThat(Role.fromWireName(role.wireName())).isSameAs(role);
    }

    @ParameterizedTest
    @ValueSource(strings = {"developer", "System", "USER", "", " user"})
    void unknownWireNameIsRefused(String name) {
        PaganticException failure = assertConfigInvalid(() -> Role.fromWireName(name));

        assertThat(failure.details()).containsEntry("role", name);
    }

    @Test
    void nullWireNameIsRefusedWithoutADetail() {
        PaganticException failure = assertConfigInvalid(() -> Role.fromWireName(null));

        assertThat(failure.details()).doesNotContainKey("role");
    }
}
