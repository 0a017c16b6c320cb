// Helpers to assert where a SpecError points and what it says.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "common/spec_error.hpp"

namespace trainloop::testing {

// Runs `action`, which must throw SpecError; returns it for inspection.
inline SpecError expect_spec_error(const std::function<void()>& action) {
    try {
        action();
    } catch (const SpecError& e) {
        return e;
    }
    ADD_FAILURE() << "expected a SpecError, but nothing was thrown";
    return SpecError({}, "", "");
}

inline ::testing::AssertionResult contains(const std::string& text, const std::string& part) {
    if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "expected to find `" << part << "` in:\n" << text;
}

}  // namespace trainloop::testing
