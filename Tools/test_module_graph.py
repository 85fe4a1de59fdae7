"""Tests of Tools/module-graph: the package keeps its layers, and the rules catch a break.

Run: python3 -m pytest Tools/test_module_graph.py (Tools/test does).
"""
import importlib.machinery
import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))
loader = importlib.machinery.SourceFileLoader("module_graph", os.path.join(HERE, "module-graph"))
spec = importlib.util.spec_from_loader("module_graph", loader)
module_graph = importlib.util.module_from_spec(spec)
loader.exec_module(module_graph)
TARGETS = module_graph.targets()  # `swift package dump-package` once for the whole file


def test_the_package_keeps_its_layers():
    targets = TARGETS
    assert module_graph.problems(targets) == []
    names = {name for name, kind, _ in targets if kind != "test"}
    # Every library and executable is placed (the C shims and test support aside).
    placed = {name for names in module_graph.LAYERS.values() for name in names}
    assert names - placed <= module_graph.SYSTEM | module_graph.TEST_ONLY


def test_a_model_importing_an_adapter_or_a_daemon_is_caught():
    targets = [("Horizon", "regular", ["RoadMap", "RoadMapStore"]),
               ("RoadMap", "regular", ["GRDB"]),
               ("SocketCAN", "regular", ["HorizonDaemon"]),
               ("HorizonDaemon", "regular", ["adasis"]),
               ("Brand", "regular", [])]
    found = module_graph.problems(targets)
    assert any("Horizon → RoadMapStore" in p for p in found)
    assert any("RoadMap → GRDB" in p for p in found)
    assert any("SocketCAN → HorizonDaemon" in p for p in found)
    assert any("nothing imports an executable" in p for p in found)
    assert any("Brand: not placed" in p for p in found)


def test_the_drawing_has_every_layer_bottom_to_top():
    graph = module_graph.mermaid(TARGETS)
    assert graph.startswith("flowchart BT")
    positions = [graph.index(f"subgraph {layer}[") for layer in module_graph.ORDER]
    assert positions == sorted(positions)
    assert "HorizonDaemon --> SocketCAN" in graph
