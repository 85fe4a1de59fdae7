#!/usr/bin/env python3
"""Writes Tools/sample-frames.log: a short scripted ADASIS v2 horizon, encoded through
Tools/adasis-v2.dbc with cantools (raw values). Re-run after changing the DBC."""
import os, cantools
here = os.path.dirname(os.path.abspath(__file__))
db = cantools.database.load_file(os.path.join(here, "adasis-v2.dbc"))
yes, no, unknown = 1, 0, 2
script = [
    ("ADASIS_META_DATA", dict(MessageType=6, MapProvider=6, CountryCode=246, CyclicCounter=0, ProtocolVersionMajor=2,
        ProtocolVersionMinorSub=4, HardwareVersion=1, DrivingSide=1, RegionCode=0, MapVersionQuarter=3,
        MapVersionYear=19, SpeedUnits=0, ProtocolVersionMinor=0)),
    # Main path 8: a 50 km/h single carriageway in a built-up area, one lane each way.
    ("ADASIS_SEGMENT", dict(MessageType=2, Offset=0, CyclicCounter=0, PathIndex=8, Tunnel=no, Bridge=no,
        BuiltUpArea=yes, Retransmission=0, Update=0, RelativeProbability=31, FunctionalRoadClass=4,
        PartOfCalculatedRoute=unknown, ComplexIntersection=no, FormOfWay=3, EffectiveSpeedLimit=11,
        EffectiveSpeedLimitType=1, DividedRoad=no, NumberOfLanesOppositeDirection=1, NumberOfLanesDrivingDirection=1)),
    # A right-hand curve of radius 100 m (code 770) from 180 m, straight (511) again 60 m later.
    ("ADASIS_PROFILE_SHORT", dict(MessageType=4, Offset=180, CyclicCounter=0, PathIndex=8, ProfileType=1,
        ControlPoint=0, Retransmission=0, Update=0, Accuracy=1, Distance1=60, Value0=770, Value1=511)),
    # Junction at 250 m: a side road to the right (sub-path 9, 20 %), last stub of the offset.
    ("ADASIS_STUB", dict(MessageType=3, Offset=250, CyclicCounter=0, PathIndex=8, SubPathIndex=9, Retransmission=0,
        Update=0, RelativeProbability=6, FunctionalRoadClass=6, PartOfCalculatedRoute=unknown,
        ComplexIntersection=no, FormOfWay=3, TurnAngle=64, LastStubAtOffset=1, RightOfWay=1,
        NumberOfLanesOppositeDirection=1, NumberOfLanesDrivingDirection=1)),
    # From 300 m the limit drops to 30 km/h (code 7).
    ("ADASIS_SEGMENT", dict(MessageType=2, Offset=300, CyclicCounter=1, PathIndex=8, Tunnel=no, Bridge=no,
        BuiltUpArea=yes, Retransmission=0, Update=0, RelativeProbability=31, FunctionalRoadClass=4,
        PartOfCalculatedRoute=unknown, ComplexIntersection=no, FormOfWay=3, EffectiveSpeedLimit=7,
        EffectiveSpeedLimitType=1, DividedRoad=no, NumberOfLanesOppositeDirection=1, NumberOfLanesDrivingDirection=1)),
    # The vehicle at 120 m on path 8, 13.8 m/s (raw 133), heading along the path, age 0.
    ("ADASIS_POSITION", dict(MessageType=1, Offset=120, CyclicCounter=0, PathIndex=8, PositionIndex=0,
        PositionProbability=30, PositionAge=0, PositionConfidence=1, CurrentLane=2, Speed=133, RelativeHeading=0)),
]
with open(os.path.join(here, "sample-frames.log"), "w") as out:
    for i, (name, values) in enumerate(script):
        message = db.get_message_by_name(name)
        data = message.encode(values, scaling=False, strict=True)
        out.write(f"(0.{i * 10000:06d}) vcan0 {message.frame_id:03X}#{data.hex().upper()}\n")
