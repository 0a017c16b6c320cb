// Pieces for writing YAML text by hand (the spec writers print a stable,
// commented layout rather than an emitter's): a string as a YAML scalar that
// reads back as the same string, and a number that reads back as the same
// double.
#pragma once

#include <string>
#include <string_view>

namespace trainloop {

// Plain when the text reads back unchanged as a string (letters, digits and
// `_ . / - +`, not starting with `-`, not a YAML keyword such as `null` or
// `true`); otherwise double-quoted with escapes.
std::string yaml_scalar(std::string_view text);

// The shortest decimal text that reads back as exactly `value` ("1", "0.315",
// "1e-05").
std::string yaml_number(double value);

}  // namespace trainloop
