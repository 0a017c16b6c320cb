// The Timeloop reference corpus (tests/golden/timeloop/dense/, made by
// tools/oracles/generate_dense_corpus.py): each case is an architecture
// directory's arch.yaml, ERT.yaml and ART.yaml plus CASE.yaml (problem and
// mapping), and CASE.json with timeloop-model's summary. These helpers list
// the cases and evaluate one with trainloop exactly as `eval --timeloop` does.
#pragma once

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "eval/arch_model.hpp"
#include "eval/evaluation.hpp"
#include "timeloop/timeloop_import.hpp"

namespace trainloop::testing {

struct CorpusCase {
    std::filesystem::path arch_dir;
    std::string name;  // CASE, without extension

    std::filesystem::path spec() const { return arch_dir / (name + ".yaml"); }
    std::filesystem::path expected() const { return arch_dir / (name + ".json"); }
    std::string label() const { return arch_dir.filename().string() + "/" + name; }
};

inline const std::filesystem::path& dense_corpus_dir() {
    static const std::filesystem::path dir =
        std::filesystem::path(TRAINLOOP_SOURCE_DIR) / "tests/golden/timeloop/dense";
    return dir;
}

// The architecture directories of a corpus, sorted.
inline std::vector<std::filesystem::path> corpus_architectures(const std::filesystem::path& root) {
    std::vector<std::filesystem::path> out;
    if (!std::filesystem::is_directory(root)) return out;
    for (const auto& entry : std::filesystem::directory_iterator(root)) {
        if (entry.is_directory()) out.push_back(entry.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

// The cases of one architecture directory (every CASE.json with its CASE.yaml), sorted.
inline std::vector<CorpusCase> corpus_cases(const std::filesystem::path& arch_dir) {
    std::vector<CorpusCase> out;
    for (const auto& entry : std::filesystem::directory_iterator(arch_dir)) {
        const auto& p = entry.path();
        if (p.extension() != ".json") continue;
        CorpusCase c{arch_dir, p.stem().string()};
        if (std::filesystem::exists(c.spec())) out.push_back(c);
    }
    std::sort(out.begin(), out.end(),
              [](const CorpusCase& a, const CorpusCase& b) { return a.name < b.name; });
    return out;
}

inline nlohmann::json read_json(const std::filesystem::path& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

struct EvaluatedCase {
    TimeloopSpec spec;
    TimeloopCase imported;
    ArchModel model;
    Evaluation evaluation;
};

// Reads the case's Timeloop files as `eval --timeloop` does and evaluates it.
inline EvaluatedCase evaluate_corpus_case(const CorpusCase& c) {
    EvaluatedCase out;
    std::vector<std::string> files;
    for (const char* f : {"arch.yaml", "ERT.yaml", "ART.yaml"}) {
        files.push_back((c.arch_dir / f).string());
    }
    files.push_back(c.spec().string());
    out.spec = read_timeloop_spec(files);
    out.imported = import_timeloop(out.spec);
    out.model = build_arch_model(out.imported.arch);
    out.evaluation = evaluate(out.model, out.imported.problem, out.imported.mapping);
    return out;
}

}  // namespace trainloop::testing
