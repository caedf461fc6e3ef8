# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The idlegpu authors
# Writes the man page from the text of `idlegpu --help`, so that the two never disagree.
#   cmake -DIDLEGPU=<binary> -DVERSION=<x.y.z> -DSUMMARY=<one line> -DTAIL=<roff file> -DOUTPUT=<idlegpu.1>
#         -P helptoman.cmake
# The help text is QCommandLineParser's: "Usage: ...", the description, then "Options:" with each option's
# names at column 2 and its description at one column shared by all options (wrapped lines start there too), then
# "Arguments:" with the positional arguments in the same columns.
# TAIL holds the hand-written sections that --help has no room for (files, signals, exit status).

foreach(var IDLEGPU VERSION SUMMARY TAIL OUTPUT)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "helptoman.cmake: -D${var}=... is missing")
    endif()
endforeach()

# The help in English and without a display, whatever the build machine has.
unset(ENV{DISPLAY})
unset(ENV{WAYLAND_DISPLAY})
unset(ENV{QT_QPA_PLATFORM})
set(ENV{LANG} C.UTF-8)
set(ENV{LC_ALL} C.UTF-8)
set(ENV{LANGUAGE} "")
execute_process(COMMAND ${IDLEGPU} --help OUTPUT_VARIABLE help ERROR_VARIABLE errors RESULT_VARIABLE status)
if(NOT status EQUAL 0 OR NOT help MATCHES "\nOptions:\n")
    message(FATAL_ERROR "helptoman.cmake: `${IDLEGPU} --help` failed (${status}) or printed no options:\n"
                        "${help}${errors}")
endif()

# Roff: backslashes and hyphens escaped, no line may start with a control character.
function(roff_escape text out)
    string(REPLACE "\\" "\\e" text "${text}")
    string(REPLACE "-" "\\-" text "${text}")
    string(REGEX REPLACE "^([.'])" "\\\\&\\1" text "${text}")
    string(REPLACE "${semicolon_stand_in}" ";" text "${text}")
    string(REPLACE "${open_bracket_stand_in}" "[" text "${text}")
    string(REPLACE "${close_bracket_stand_in}" "]" text "${text}")
    set(${out} "${text}" PARENT_SCOPE)
endfunction()

# Semicolons and brackets would confuse CMake's list splitting: stand-ins until the text is escaped for roff.
string(ASCII 1 semicolon_stand_in)
string(ASCII 2 open_bracket_stand_in)
string(ASCII 3 close_bracket_stand_in)
string(REPLACE ";" "${semicolon_stand_in}" help "${help}")
string(REPLACE "[" "${open_bracket_stand_in}" help "${help}")
string(REPLACE "]" "${close_bracket_stand_in}" help "${help}")
string(REGEX REPLACE "\n$" "" help "${help}")
string(REPLACE "\n" ";" lines "${help}")

set(section usage)
set(description_lines)
set(option_lines)
set(argument_lines)
set(synopsis "[options]")
foreach(line IN LISTS lines)
    if(section STREQUAL usage)
        # "Usage: idlegpu [options] [WORKLOAD]": what follows the program.
        if(line MATCHES "^Usage: [^ ]+ (.+)$")
            set(synopsis "${CMAKE_MATCH_1}")
        endif()
        set(section description)
    elseif(line STREQUAL "Arguments:")
        set(section arguments)
    elseif(section STREQUAL arguments AND NOT line STREQUAL "")
        list(APPEND argument_lines "${line}")
    elseif(line STREQUAL "Options:")
        set(section options)
    elseif(section STREQUAL description)
        if(NOT line STREQUAL "")
            list(APPEND description_lines "${line}")
        endif()
    elseif(section STREQUAL options AND NOT line STREQUAL "")
        list(APPEND option_lines "${line}")
    endif()
endforeach()

# The description column: the first column after column 2 where every option line has a space followed by
# text. An option whose names contain no space (--headless) rules out columns inside the names.
set(column 0)
foreach(candidate RANGE 3 60)
    set(fits TRUE)
    math(EXPR before "${candidate} - 1")
    foreach(line IN LISTS option_lines argument_lines)
        string(LENGTH "${line}" length)
        if(length LESS_EQUAL candidate)
            set(fits FALSE)
            break()
        endif()
        string(SUBSTRING "${line}" ${before} 2 pair)
        if(NOT pair MATCHES "^ [^ ]$")
            set(fits FALSE)
            break()
        endif()
    endforeach()
    if(fits)
        set(column ${candidate})
        break()
    endif()
endforeach()
if(column EQUAL 0)
    message(FATAL_ERROR "helptoman.cmake: cannot find the description column of the options:\n${help}")
endif()

set(options_roff "")
foreach(line IN LISTS option_lines)
    string(SUBSTRING "${line}" 0 ${column} names)
    string(SUBSTRING "${line}" ${column} -1 text)
    string(STRIP "${names}" names)
    roff_escape("${text}" text)
    if(names STREQUAL "")
        string(APPEND options_roff "${text}\n")
        continue()
    endif()
    # "-c, --config <FILE>": names in bold, the argument in italics.
    string(REPLACE " " ";" words "${names}")
    set(tag "")
    foreach(word IN LISTS words)
        roff_escape("${word}" word)
        if(word MATCHES "^<(.*)>$")
            string(APPEND tag " \\fI${CMAKE_MATCH_1}\\fR")
        else()
            if(NOT tag STREQUAL "")
                string(APPEND tag " ")
            endif()
            string(REGEX MATCH "^([^,]*)(,?)$" word "${word}")
            string(APPEND tag "\\fB${CMAKE_MATCH_1}\\fR${CMAKE_MATCH_2}")
        endif()
    endforeach()
    string(APPEND options_roff ".TP\n${tag}\n${text}\n")
endforeach()

# Each argument as an option, its name in italics.
foreach(line IN LISTS argument_lines)
    string(SUBSTRING "${line}" 0 ${column} name)
    string(SUBSTRING "${line}" ${column} -1 text)
    string(STRIP "${name}" name)
    roff_escape("${text}" text)
    if(name STREQUAL "")
        string(APPEND options_roff "${text}\n")
    else()
        roff_escape("${name}" name)
        string(APPEND options_roff ".TP\n\\fI${name}\\fR\n${text}\n")
    endif()
endforeach()

# "[options] [WORKLOAD]": each word in brackets, in italics.
set(synopsis_roff "")
string(REPLACE " " ";" synopsis_words "${synopsis}")
foreach(word IN LISTS synopsis_words)
    roff_escape("${word}" word)
    string(REGEX REPLACE "^\\[(.*)\\]$" "\\1" inner "${word}")
    string(APPEND synopsis_roff "[\\fI${inner}\\fR]\n")
endforeach()

set(description_roff "")
foreach(line IN LISTS description_lines)
    roff_escape("${line}" line)
    string(APPEND description_roff "${line}\n")
endforeach()

roff_escape("${SUMMARY}" summary)
string(TIMESTAMP date "%Y-%m-%d" UTC) # honours SOURCE_DATE_EPOCH
file(READ "${TAIL}" tail)
get_filename_component(tail_name "${TAIL}" NAME)
file(WRITE "${OUTPUT}"
".\\\" Generated from `idlegpu --help` and resources/${tail_name} by resources/helptoman.cmake; edit those instead.
.TH IDLEGPU 1 \"${date}\" \"idlegpu ${VERSION}\" \"User Commands\"
.SH NAME
idlegpu \\- ${summary}
.SH SYNOPSIS
.B idlegpu
${synopsis_roff}.SH DESCRIPTION
${description_roff}.SH OPTIONS
${options_roff}${tail}")
