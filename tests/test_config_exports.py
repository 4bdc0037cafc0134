"""``rocking_contact.config`` re-exports every public function and class of its modules:
callers import from it, not from the module that defines a name."""

import importlib
import inspect
import pkgutil

import pytest

import rocking_contact.config as config

MODULES = [m.name for m in pkgutil.iter_modules(config.__path__)]


@pytest.mark.parametrize("module", MODULES)
def test_every_public_function_and_class_is_re_exported(module):
    mod = importlib.import_module(f"rocking_contact.config.{module}")
    own = [name for name, value in vars(mod).items()
           if not name.startswith("_") and (inspect.isfunction(value) or inspect.isclass(value))
           and value.__module__ == mod.__name__]
    assert own, module
    missing = [name for name in own if name not in config.__all__]
    assert missing == [], f"{module}: not re-exported by rocking_contact.config: {missing}"
    assert all(getattr(config, name) is getattr(mod, name) for name in own)


def test_the_accessors_of_what_loading_notes_on_a_case_are_re_exported():
    from rocking_contact.config import loading
    for name in ("source_file", "references_from", "loaded_as", "loading_record",
                 "base_case", "twin_of"):
        assert getattr(config, name) is getattr(loading, name), name


def test_the_loading_record_and_the_twin_are_read_by_their_accessors():
    import rocking_contact as rc
    from rocking_contact.analytic.rigid_runner import rigid_twin
    from rocking_contact.config import load_case, loading_record, twin_of

    loaded = rc.load_case("sdnv105a", {"time.end": 0.01})
    assert loading_record(loaded) is loaded.load_info.load_record
    assert loading_record(loaded)["overrides"] == {"time.end": 0.01}
    assert loading_record(load_case("sdnv105a")) is None  # no rc.load_case: no record
    twin = rigid_twin(loaded)
    assert twin_of(twin) == "sdnv105a" and twin_of(loaded) is None
    assert loading_record(twin)["command"] == "rigid"
